//! A forecast of a count's progress from its subproblems' estimated work.

/// A forecast of a run's progress from the start, before any subproblem has
/// finished: the fraction of the estimated work done and the time left,
/// from the subproblems' estimated work (such as [`queens::estimate::weights`](crate::queens::estimate::weights)), the finished ones, and the rate.
///
/// Until a tenth of the work has finished, the rate is the calibrated one
/// (such as [`queens::estimate::calibrate`](crate::queens::estimate::calibrate) measures) times the threads, and the work done is what that
/// rate gives for the time elapsed (the subproblems being counted report
/// nothing until they end); from then on the rate measured on the finished
/// subproblems takes over, smoothly. The work done is never less than the
/// finished subproblems' weight.
#[derive(Debug, Clone)]
pub struct Forecast {
    weights: Vec<f64>,
    /// Summed weight of the subproblems to count.
    total: f64,
    /// Summed weight of those finished.
    done: f64,
    /// Expected work per second, on every thread together.
    rate: f64,
}

impl Forecast {
    /// A forecast for the subproblems of `weights` for which `todo` is
    /// true, counted at `rate` weight units per second (all threads).
    pub fn new(weights: Vec<f64>, todo: impl Fn(usize) -> bool, rate: f64) -> Forecast {
        let total = (0..weights.len()).filter(|&i| todo(i)).map(|i| weights[i]).sum();
        Forecast { weights, total, done: 0.0, rate: rate.max(f64::MIN_POSITIVE) }
    }

    /// Records that subproblem `index` has finished.
    pub fn finished(&mut self, index: usize) {
        self.done += self.weights[index];
    }

    /// The estimated fraction of the work done `elapsed` seconds into the
    /// run (0 to 1), and the seconds left.
    pub fn at(&self, elapsed: f64) -> (f64, f64) {
        if self.total <= 0.0 {
            return (1.0, 0.0);
        }
        let finished = (self.done / self.total).min(1.0);
        let trust = (finished / 0.1).min(1.0);
        let measured = if elapsed > 0.0 { self.done / elapsed } else { 0.0 };
        let rate = ((1.0 - trust) * self.rate + trust * measured).max(f64::MIN_POSITIVE);
        // Work under way counts at the rate, up to (not quite) the whole.
        let done = if finished >= 1.0 { self.total } else { self.done.max((elapsed * rate).min(self.total * 0.999)) };
        (done / self.total, (self.total - done) / rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_forecast_starts_from_the_rate_and_moves_with_time_and_finished_work() {
        let weights = vec![10.0, 30.0, 60.0, 1000.0];
        // The last subproblem was counted in an earlier run.
        let mut forecast = Forecast::new(weights, |i| i < 3, 2.0);
        // At once: nothing done, all 100 units left at 2 per second.
        assert_eq!(forecast.at(0.0), (0.0, 50.0));
        // Time passing moves the estimate though nothing has finished.
        let (fraction, left) = forecast.at(10.0);
        assert!((fraction - 0.2).abs() < 1e-9 && (left - 40.0).abs() < 1e-9, "{fraction} {left}");
        // Finished work counts in full, and past a tenth the measured rate
        // (60 units in 10 s: 6 per second) takes over.
        forecast.finished(2);
        let (fraction, left) = forecast.at(10.0);
        assert!((fraction - 0.6).abs() < 1e-9, "{fraction}");
        assert!((left - 40.0 / 6.0).abs() < 1e-9, "{left}");
        forecast.finished(0);
        forecast.finished(1);
        assert_eq!(forecast.at(20.0), (1.0, 0.0));
    }
}
