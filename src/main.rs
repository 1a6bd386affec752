fn main() {
    println!("cellmate");
}
