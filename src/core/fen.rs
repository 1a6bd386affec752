//! Pieces of FEN shared by every variant: the placement field, written from a square → letter
//! function, with runs of empty squares as decimal numbers (two digits on wide boards).

/// A placement upside down with the colours swapped (upper and lower case exchanged): the same
/// position seen from the other side.
pub fn mirror_placement(placement: &str) -> String {
    placement
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Writes a placement of `width` × `height`, top rank first, ranks separated by `/`;
/// `letter(file, rank)` gives the letter on a square (ranks and files from 0), `None` if empty.
pub fn write_placement(
    width: u8,
    height: u8,
    mut letter: impl FnMut(u8, u8) -> Option<char>,
) -> String {
    let mut s = String::with_capacity(width as usize * height as usize / 2 + height as usize);
    for rank in (0..height).rev() {
        let mut empty = 0u32;
        for file in 0..width {
            match letter(file, rank) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_wide_boards() {
        let p = write_placement(8, 2, |f, r| {
            (r == 1 && f == 0 || r == 0 && f == 7).then_some('K')
        });
        assert_eq!(p, "K7/7K");
        assert_eq!(write_placement(16, 1, |_, _| None), "16");
        assert_eq!(
            write_placement(12, 1, |f, _| (f == 11).then_some('p')),
            "11p"
        );
    }
}
