"""Random-effects pooling of studies' effects (issue #59): each study's effect is the log of a ratio with
its sampling variance; ``pool`` gives the pooled estimate on that log scale (the caller exponentiates),
its standard error and confidence interval, the prediction interval of a new study's true effect, tau²,
I² and Cochran's Q.

The estimate, its standard error and interval, tau² and Q come from statsmodels'
``combine_effects`` (``statsmodels.stats.meta_analysis``): DerSimonian-Laird (``method="dl"``, the
method of moments of DerSimonian & Laird 1986) or Paule-Mandel (``method="pm"``, its iterated
estimator). statsmodels has no REML estimator. The confidence interval is the normal one,
estimate ± z·se, as metafor's ``rma`` prints it by default.

Refused, with a ValueError naming what is wrong: fewer than 2 studies (3 for a prediction interval),
an effect that is not a finite number, a variance that is not a positive finite number, effects and
variances of different lengths.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

# scipy and statsmodels are imported where they are used: statsmodels brings pandas, 2 s of imports
# that every other benchdb command (validate, import, diff) would pay at its start

METHODS = {"dl": "chi2", "pm": "iterated"}  # our name -> combine_effects' method_re
PREDICTIONS = ("t", "z", None)
# Paule-Mandel: statsmodels iterates until |Q(tau²) - (k - 1)| < atol; we ask for more than its default
# 1e-5 and check afterwards that it got there (statsmodels returns its last value silently).
PM_ATOL = 1e-10
PM_MAXITER = 200


@dataclass(frozen=True)
class Pooled:
    """A random-effects pooled estimate on the log scale.

    ``k`` studies; ``estimate`` and its standard error ``se``; ``ci_low``..``ci_high`` its confidence
    interval at the level asked; ``pi_low``..``pi_high`` the prediction interval (None when none was
    asked for); ``tau2`` the between-study variance (a negative estimate truncated at 0); ``i2`` I² as
    a fraction 0..1, not a percentage (metafor prints 92.12% where this holds 0.9212...); ``q``
    Cochran's Q on k - 1 degrees of freedom; ``method`` "dl" or "pm"."""

    k: int
    estimate: float
    se: float
    ci_low: float
    ci_high: float
    pi_low: float | None
    pi_high: float | None
    tau2: float
    i2: float
    q: float
    method: str

    def as_data(self) -> dict:
        """The fields as a plain dict (numbers as Python floats), for JSON."""
        return dataclasses.asdict(self)


def preload() -> None:
    """Import what pooling uses (scipy's and statsmodels' modules, 2 to 5 s) ahead of the export, on a
    thread of the build while its database loads (ingest/build/exporter.py): the export's first pool
    then finds them imported, or waits for the import under way."""
    from scipy import stats  # noqa: F401
    from statsmodels.stats.meta_analysis import combine_effects  # noqa: F401


def prediction_interval(*, estimate: float, se: float, tau2: float, k: int, level: float = 0.95,
                        prediction: str = "t") -> tuple[float, float]:
    """The interval in which a new study's true effect falls with probability ``level``:
    estimate ± c·sqrt(tau² + se²). ``prediction="t"``: c is the t quantile on k - 2 degrees of freedom
    (Higgins, Thompson & Spiegelhalter 2009; the Cochrane Handbook, §10.10.4.3), which needs k ≥ 3;
    ``"z"``: c is the normal quantile, as metafor's ``predict()`` does by default."""
    _check_level(level)
    if prediction not in ("t", "z"):
        raise ValueError(f"prediction_interval: prediction {prediction!r} is not 't' or 'z'")
    if k < 3:
        raise ValueError(f"a prediction interval needs at least 3 studies; there are {k}")
    upper = 0.5 + level / 2
    from scipy import stats

    c = stats.t.ppf(upper, k - 2) if prediction == "t" else stats.norm.ppf(upper)
    half = float(c) * math.sqrt(tau2 + se * se)
    return estimate - half, estimate + half


def pool(effects, variances, *, method: str = "dl", level: float = 0.95, prediction: str | None = "t") -> Pooled:
    """Pool ``effects`` (each study's log ratio) with their sampling ``variances`` by random effects.

    ``method``: "dl" (DerSimonian-Laird) or "pm" (Paule-Mandel). ``level``: of the confidence and
    prediction intervals, between 0 and 1. ``prediction``: "t" (Higgins et al. 2009, t on k - 2
    degrees of freedom), "z" (normal, metafor's default) or None (no prediction interval, which lets
    2 studies be pooled). tau² below 0 is truncated at 0, as DerSimonian-Laird does, and the estimate
    is then the fixed-effect one. I² is tau² / (tau² + s²), s² the typical within-study variance
    (k - 1)·Σw / ((Σw)² - Σw²), w = 1/variance (Higgins & Thompson 2002): for DerSimonian-Laird it is
    (Q - (k - 1)) / Q, truncated at 0; a fraction 0..1."""
    if method not in METHODS:
        raise ValueError(f"pool: method {method!r} is not one of {', '.join(METHODS)} (statsmodels has no REML)")
    if prediction not in PREDICTIONS:
        raise ValueError(f"pool: prediction {prediction!r} is not 't', 'z' or None")
    _check_level(level)
    y, v = _studies(effects, variances)
    k = len(y)
    if k < 2:
        raise ValueError(f"pool: {k} {'study' if k == 1 else 'studies'}; pooling needs at least 2")
    if prediction is not None and k < 3:
        raise ValueError(f"pool: a prediction interval needs at least 3 studies; there are {k} "
                         "(prediction=None pools without one)")
    extra = {"atol": PM_ATOL, "maxiter": PM_MAXITER} if method == "pm" else {}
    # statsmodels goes on with a negative DerSimonian-Laird tau² (weights 1/(v + tau²) that may divide by
    # 0), its own I² divides by Q, and its intervals include the Hartung-Knapp one, a square root of what
    # may be negative: all are set aside below, so their warnings are too
    with np.errstate(divide="ignore", invalid="ignore"):
        from statsmodels.stats.meta_analysis import combine_effects

        res = combine_effects(y, v, method_re=METHODS[method], use_t=False, alpha=1 - level, **extra)
        ci_fe, ci_re = res.conf_int(alpha=1 - level, use_t=False)[:2]
    tau2 = float(res.tau2)
    if method == "pm" and tau2 > 0:
        _check_converged(y, v, tau2)
    if tau2 > 0:
        estimate, se, ci = float(res.mean_effect_re), float(res.sd_eff_w_re), ci_re
    else:  # a negative estimate truncated at 0: the random-effects model is the fixed-effect one
        tau2 = 0.0
        estimate, se, ci = float(res.mean_effect_fe), float(res.sd_eff_w_fe), ci_fe
    w = 1 / v
    typical = (k - 1) * w.sum() / (w.sum() ** 2 - (w * w).sum())
    pi = (prediction_interval(estimate=estimate, se=se, tau2=tau2, k=k, level=level, prediction=prediction)
          if prediction else (None, None))
    return Pooled(k=k, estimate=estimate, se=se, ci_low=float(ci[0]), ci_high=float(ci[1]),
                  pi_low=pi[0], pi_high=pi[1], tau2=tau2, i2=float(tau2 / (tau2 + typical)),
                  q=max(0.0, float(res.q)), method=method)  # a sum of squares, which statsmodels
    # computes as a difference: identical effects give it as -3e-18


def _studies(effects, variances) -> tuple[np.ndarray, np.ndarray]:
    effects, variances = list(effects), list(variances)
    if len(effects) != len(variances):
        raise ValueError(f"pool: {len(effects)} effects but {len(variances)} variances; "
                         "each study needs one of each")
    for i, (e, var) in enumerate(zip(effects, variances), start=1):
        if not _finite(e):
            raise ValueError(f"pool: the effect of study {i} is {e!r}; an effect must be a finite number")
        if not _finite(var) or var <= 0:
            raise ValueError(f"pool: the variance of study {i} is {var!r}; "
                             "a variance must be a positive finite number")
    return np.asarray(effects, dtype=float), np.asarray(variances, dtype=float)


def _finite(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) and math.isfinite(x)


def _check_level(level) -> None:
    if not _finite(level) or not 0 < level < 1:
        raise ValueError(f"level {level!r} is not a number between 0 and 1 (0.95 for 95%)")


def _check_converged(y: np.ndarray, v: np.ndarray, tau2: float) -> None:
    """Paule-Mandel's tau² solves Σ w(y - m)² = k - 1 with w = 1/(v + tau²): refuse one that does not."""
    w = 1 / (v + tau2)
    m = (w * y).sum() / w.sum()
    gap = float((w * (y - m) ** 2).sum() - (len(y) - 1))
    if abs(gap) > 1e-6:
        raise ValueError(f"pool: the Paule-Mandel iteration did not converge in {PM_MAXITER} steps "
                         f"(Q(tau²) - (k - 1) = {gap:.3g})")
