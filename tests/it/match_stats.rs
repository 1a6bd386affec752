//! The match statistics against figures computed here independently (and by hand).

use cellmate::referee::stats::{Sprt, SprtState, Wdl};

fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
    Wdl {
        wins,
        draws,
        losses,
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_from_score() {
    // W=60 D=20 L=20: s = 70/100 = 0.7, Elo = -400·log10(1/0.7 − 1) = -400·log10(3/7)
    //   = 400·log10(7/3) = 400 · 0.367977 = 147.19.
    let r = wdl(60, 20, 20);
    assert!(close(r.score().unwrap(), 0.7, 1e-12));
    assert!(close(
        r.elo().unwrap(),
        400.0 * (7.0f64 / 3.0).log10(),
        1e-9
    ));
    assert!(close(r.elo().unwrap(), 147.19, 0.01));
    // Even score: 0 Elo; the mirror image: the opposite Elo.
    assert!(close(wdl(10, 5, 10).elo().unwrap(), 0.0, 1e-12));
    assert!(close(wdl(20, 20, 60).elo().unwrap(), -147.19, 0.01));
    // A perfect score has no finite Elo; no games, no figures.
    assert_eq!(wdl(3, 0, 0).elo(), None);
    assert_eq!(wdl(0, 0, 0).score(), None);
}

#[test]
fn elo_error_bars() {
    // W=120 D=80 L=100 (N=300): s = 160/300 = 0.533333.
    // σ² = [120·(0.466667)² + 80·(0.033333)² + 100·(0.533333)²] / 300
    //    = [26.1333 + 0.0889 + 28.4444] / 300 = 0.182222
    // σ/√N = √(0.182222/300) = 0.024646; 95%: s ± 1.959964·0.024646 = [0.485029, 0.581638]
    // Elo: E(0.581638) = 57.24, E(0.485029) = -10.41; half the width: 33.82.
    let r = wdl(120, 80, 100);
    let s: f64 = 160.0 / 300.0;
    let var = (120.0 * (1.0 - s).powi(2) + 80.0 * (0.5 - s).powi(2) + 100.0 * s.powi(2)) / 300.0;
    assert!(close(var, 0.182222, 1e-6));
    let se = (var / 300.0).sqrt();
    let e = |x: f64| -400.0 * (1.0 / x - 1.0).log10();
    let expected = (e(s + 1.959964 * se) - e(s - 1.959964 * se)) / 2.0;
    assert!(close(r.elo_error95().unwrap(), expected, 1e-3));
    assert!(close(r.elo_error95().unwrap(), 33.82, 0.01));
    assert!(close(r.elo().unwrap(), 23.20, 0.01));
    // LOS = ½(1 + erf((120 − 100)/√(2·220))) = ½(1 + erf(0.953463)) = 0.9112.
    assert!(close(r.los().unwrap(), 0.9112, 1e-4));
    assert_eq!(wdl(0, 7, 0).los(), None);
}

#[test]
fn sprt_llr_matches_a_hand_computed_value() {
    // GSPRT (trinomial, logistic Elo), as fishtest's LLR_logistic:
    //   LLR = N · (s1 − s0) · (2s − s0 − s1) / (2σ²).
    // W=120 D=80 L=100, elo0=0, elo1=5:
    //   s0 = 1/(1 + 10^0) = 0.5
    //   s1 = 1/(1 + 10^(−5/400)) = 1/(1 + 0.971628) = 0.507195
    //   s = 0.533333, σ² = 0.182222 (see elo_error_bars)
    //   LLR = 300 · 0.007195 · (1.066667 − 1.007195) / 0.364444
    //       = 300 · 0.007195 · 0.059471 / 0.364444 = 0.3522
    let sprt = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
    let r = wdl(120, 80, 100);
    assert!(close(sprt.llr(&r), 0.3522, 1e-4), "{}", sprt.llr(&r));
    // The same computed here from the definitions.
    let s1 = 1.0 / (1.0 + 10f64.powf(-5.0 / 400.0));
    let (s, var) = (160.0 / 300.0, 0.182_222_222_222_222_2);
    let llr = 300.0 * (s1 - 0.5) * (2.0 * s - 0.5 - s1) / (2.0 * var);
    assert!(close(sprt.llr(&r), llr, 1e-9));
    // Bounds: ln(0.05/0.95) = −ln 19 = −2.944439, ln(0.95/0.05) = ln 19.
    let (a, b) = sprt.bounds();
    assert!(close(a, -(19f64.ln()), 1e-12) && close(b, 19f64.ln(), 1e-12));
    assert!(close(b, 2.944439, 1e-6));
    assert_eq!(sprt.state(&r), SprtState::Continue);
}

#[test]
fn sprt_decisions() {
    let sprt = Sprt::parse("elo0=0,elo1=5").unwrap();
    // Strongly better: W=600 D=300 L=400 → s = 0.576923, far above s1: H1.
    assert_eq!(sprt.state(&wdl(600, 300, 400)), SprtState::AcceptH1);
    // Worse: H0.
    assert_eq!(sprt.state(&wdl(400, 300, 600)), SprtState::AcceptH0);
    // Equal: the LLR is negative (s = 0.5 < (s0 + s1)/2) but small at first…
    let even = sprt.llr(&wdl(100, 100, 100));
    assert!(even < 0.0 && even > -2.94, "{even}");
    // …and accepts H0 once there are enough games: N·(0.007195)·(−0.007195)/(2·σ²), σ² = 1/6
    // for equal thirds: −N · 0.000155 → below −2.944 from N ≈ 19000.
    assert_eq!(sprt.state(&wdl(7000, 7000, 7000)), SprtState::AcceptH0);
    // No decision (LLR 0) before there is a win, a draw and a loss.
    assert_eq!(sprt.llr(&wdl(50, 0, 0)), 0.0);
    assert_eq!(sprt.llr(&wdl(50, 3, 0)), 0.0);
    assert_eq!(sprt.state(&wdl(50, 3, 0)), SprtState::Continue);
}

#[test]
fn sprt_decision_stands_when_running_games_finish_after_it() {
    let sprt = Sprt::parse("elo0=0,elo1=5").unwrap();
    // Reached H0 at W=400 D=300 L=600 …
    let decided = sprt.update(None, &wdl(400, 300, 600));
    assert_eq!(decided.1, SprtState::AcceptH0);
    assert_eq!(decided.0, sprt.llr(&wdl(400, 300, 600)));
    // … a game that was still running ends in a win: the verdict and its LLR stay.
    assert_eq!(sprt.update(Some(decided), &wdl(401, 300, 600)), decided);
    // Undecided standings follow the results.
    let open = sprt.update(None, &wdl(100, 100, 100));
    assert_eq!(open.1, SprtState::Continue);
    let next = sprt.update(Some(open), &wdl(600, 300, 400));
    assert_eq!(next, (sprt.llr(&wdl(600, 300, 400)), SprtState::AcceptH1));
}

#[test]
fn sprt_arguments() {
    let s = Sprt::parse("elo0=-1.5,elo1=3.5,alpha=0.1,beta=0.2").unwrap();
    assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.5, 3.5, 0.1, 0.2));
    assert!(Sprt::parse("elo0=0").is_err());
    assert!(Sprt::parse("elo0=5,elo1=0").is_err());
    assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.7").is_err());
    assert!(Sprt::parse("elo0=0,elo1=x").is_err());
    assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
}
