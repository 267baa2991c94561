//! Proportions with their 95% Wilson score intervals.
//!
//! A rate is kept as two whole numbers (successes and trials), so adding up
//! games never rounds; only the figures shown are fractions.  The Wilson
//! interval stays inside [0, 1] and is sensible for small samples and for
//! rates near 0 or 1, where the textbook `p ± 1.96·√(p(1−p)/n)` is not.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The normal quantile of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion: `successes` out of `trials`, with its estimate and 95%
/// Wilson interval (absent when there were no trials).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Rate {
    pub successes: u64,
    pub trials: u64,
    /// successes / trials.
    pub rate: Option<f64>,
    /// The 95% Wilson score interval of the rate: [low, high].
    pub interval: Option<[f64; 2]>,
}

impl Rate {
    pub fn new(successes: u64, trials: u64) -> Rate {
        let successes = successes.min(trials);
        Rate {
            successes,
            trials,
            rate: (trials > 0).then(|| successes as f64 / trials as f64),
            interval: wilson(successes, trials, Z95),
        }
    }
}

/// The Wilson score interval of `successes` out of `trials` at the normal
/// quantile `z`: `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`.
/// `None` for no trials.
pub fn wilson(successes: u64, trials: u64, z: f64) -> Option<[f64; 2]> {
    if trials == 0 {
        return None;
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    Some([(centre - half).max(0.0), (centre + half).min(1.0)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn six_of_ten_has_the_wilson_interval_worked_out_by_hand() {
        // n = 10, p = 0.6, z² = 3.841458820694124:
        // denominator 1.3841458820694124, centre (0.6 + 0.1920729410347062) / it,
        // half z·√(0.024 + 0.009603647051735310) / it.
        let z2 = Z95 * Z95;
        let denominator = 1.0 + z2 / 10.0;
        let centre = (0.6 + z2 / 20.0) / denominator;
        let half = Z95 * (0.024_f64 + z2 / 400.0).sqrt() / denominator;
        let [low, high] = wilson(6, 10, Z95).expect("trials");
        assert!(close(low, centre - half) && close(high, centre + half), "{low} {high}");
        // The published values for 6/10: 0.3127 to 0.8318.
        assert!((low - 0.312_7).abs() < 5e-5 && (high - 0.831_8).abs() < 5e-5, "{low} {high}");
    }

    #[test]
    fn the_interval_stays_inside_zero_and_one() {
        let [low, high] = wilson(0, 20, Z95).expect("trials");
        assert!(low < 1e-12, "{low}");
        assert!(high > 0.0 && high < 0.2);
        let [low, high] = wilson(20, 20, Z95).expect("trials");
        assert!(high > 1.0 - 1e-12, "{high}");
        assert!(low > 0.8 && low < 1.0);
        assert_eq!(wilson(0, 0, Z95), None);
        assert_eq!(Rate::new(3, 0).rate, None);
    }
}
