"""ingest/synthesis/pooling.py held to published worked examples: the 13 BCG vaccine trials (Colditz et
al. 1994, metafor's dat.bcg) by DerSimonian-Laird, the prediction interval as metafor's predict() prints
it, Paule-Mandel on Kacker's (2004) example as metafor prints it; and the refusals' exact messages.

Every expected figure is one a source prints, cited where it is read; a figure is compared rounded to
the digits printed. METAFOR is wviechtb/metafor at commit 71ae8f5ac9befeacc6654ead1b03ff05c065d54d:
docs/ is its pkgdown site, the R output of its help pages' examples as the package printed it."""

from __future__ import annotations

import math
import warnings

import pytest

from ingest.synthesis.pooling import Pooled, pool, prediction_interval

# dat.bcg as metafor prints it beside escalc(measure="RR")'s log risk ratio yi and its variance vi:
# METAFOR docs/index.html:216-228 (the counts alone, the same, at lines 179-191).
# trial, author, year, tpos, tneg, cpos, cneg, yi, vi
BCG = (
    (1, "Aronson", 1948, 4, 119, 11, 128, -0.8893, 0.3256),
    (2, "Ferguson & Simes", 1949, 6, 300, 29, 274, -1.5854, 0.1946),
    (3, "Rosenthal et al", 1960, 3, 228, 11, 209, -1.3481, 0.4154),
    (4, "Hart & Sutherland", 1977, 62, 13536, 248, 12619, -1.4416, 0.0200),
    (5, "Frimodt-Moller et al", 1973, 33, 5036, 47, 5761, -0.2175, 0.0512),
    (6, "Stein & Aronson", 1953, 180, 1361, 372, 1079, -0.7861, 0.0069),
    (7, "Vandiviere et al", 1973, 8, 2537, 10, 619, -1.6209, 0.2230),
    (8, "TPT Madras", 1980, 505, 87886, 499, 87892, 0.0120, 0.0040),
    (9, "Coetzee & Berjak", 1968, 29, 7470, 45, 7232, -0.4694, 0.0564),
    (10, "Rosenthal et al", 1961, 17, 1699, 65, 1600, -1.3713, 0.0730),
    (11, "Comstock et al", 1974, 186, 50448, 141, 27197, -0.3394, 0.0124),
    (12, "Comstock & Webster", 1969, 5, 2493, 3, 2338, 0.4459, 0.5325),
    (13, "Comstock et al", 1976, 27, 16886, 29, 17825, -0.0173, 0.0714),
)


def _log_risk_ratios() -> tuple[list[float], list[float]]:
    """Each trial's log risk ratio, vaccinated against not, and its large-sample variance
    1/tpos - 1/(tpos+tneg) + 1/cpos - 1/(cpos+cneg), computed here from the 2x2 counts."""
    effects, variances = [], []
    for _, _, _, a, b, c, d, _, _ in BCG:
        effects.append(math.log((a / (a + b)) / (c / (c + d))))
        variances.append(1 / a - 1 / (a + b) + 1 / c - 1 / (c + d))
    return effects, variances


def test_the_trials_effects_are_the_ones_metafor_prints():
    effects, variances = _log_risk_ratios()
    assert [round(e, 4) for e in effects] == [row[7] for row in BCG]
    assert [round(v, 4) for v in variances] == [row[8] for row in BCG]


def test_dersimonian_laird_on_the_bcg_trials_meets_metafor_and_metan():
    # METAFOR tests/testthat/test_misc_metan_vs_rma.uni_with_dat.bcg.r:35-52, rma(yi, vi, method="DL")
    # on escalc(measure="RR", dat.bcg), checked there against Stata's metan (randomi, rr):
    # estimate -0.7141 (:39), ci.lb -1.0644 (:40), ci.ub -0.3638 (:41), zval -3.9952 (:42),
    # tau2 0.3088 (:43), I2 92.1173 (:44); exp(): pred 0.4896, ci 0.3449 to 0.6950 (:50-52).
    p = pool(*_log_risk_ratios(), method="dl", prediction="z")
    assert (p.k, p.method) == (13, "dl")
    assert round(p.estimate, 4) == -0.7141
    assert (round(p.ci_low, 4), round(p.ci_high, 4)) == (-1.0644, -0.3638)
    assert round(p.estimate / p.se, 4) == -3.9952  # the SE, as metafor prints it: through z = estimate / se
    assert round(p.tau2, 4) == 0.3088
    assert round(100 * p.i2, 4) == 92.1173
    assert (round(math.exp(p.estimate), 4), round(math.exp(p.ci_low), 4), round(math.exp(p.ci_high), 4)) == (
        0.4896, 0.3449, 0.6950)
    # METAFOR tests/testthat/test_misc_confint.r:19, the same fit: tau 0.5557.
    assert round(math.sqrt(p.tau2), 4) == 0.5557
    # METAFOR docs/reference/rma.uni.html:916 and :920, the same trials' I^2 and Q as rma prints them
    # (method="FE", whose I^2 is DerSimonian-Laird's (Q - df) / Q): "I^2 ...: 92.12%",
    # "Q(df = 12) = 152.2330".
    assert round(100 * p.i2, 2) == 92.12
    assert round(p.q, 4) == 152.2330


def test_the_prediction_interval_is_metafors_predict():
    # METAFOR docs/reference/rma.uni.html:545-556, rma(yi, vi, method="REML") on the BCG trials:
    # tau^2 0.3132, estimate -0.7145, se 0.1798. METAFOR docs/reference/predict.rma.html:253 and :260,
    # predict() of that fit, digits=2: "pi.lb -1.87, pi.ub 0.44"; with transf=exp "0.15, 1.55".
    low, high = prediction_interval(estimate=-0.7145, se=0.1798, tau2=0.3132, k=13, prediction="z")
    assert (round(low, 2), round(high, 2)) == (-1.87, 0.44)
    assert (round(math.exp(low), 2), round(math.exp(high), 2)) == (0.15, 1.55)


def test_the_pooled_prediction_intervals_follow_from_the_printed_figures():
    """estimate ± c·sqrt(tau² + se²) from the DerSimonian-Laird figures printed above (se from the
    printed interval, (ci.ub - ci.lb) / (2·1.959964)); z: c = 1.959964; t (Higgins, Thompson &
    Spiegelhalter 2009; Cochrane Handbook §10.10.4.3): c = t(0.975, k - 2 = 11) = 2.201, as the
    NIST/SEMATECH e-Handbook's table of the t distribution's critical values (§1.3.6.7.2) prints it.
    Four printed digits carry three here."""
    estimate, ci_low, ci_high, tau2 = -0.7141, -1.0644, -0.3638, 0.3088
    se = (ci_high - ci_low) / (2 * 1.959964)
    spread = math.sqrt(tau2 + se * se)
    effects, variances = _log_risk_ratios()
    z = pool(effects, variances, prediction="z")
    assert (round(z.pi_low, 3), round(z.pi_high, 3)) == (
        round(estimate - 1.959964 * spread, 3), round(estimate + 1.959964 * spread, 3))
    t = pool(effects, variances)  # prediction="t" is the default
    assert (round(t.pi_low, 3), round(t.pi_high, 3)) == (
        round(estimate - 2.201 * spread, 3), round(estimate + 2.201 * spread, 3))
    assert (t.estimate, t.se, t.ci_low, t.ci_high, t.tau2) == (z.estimate, z.se, z.ci_low, z.ci_high, z.tau2)


def test_paule_mandel_meets_metafor_on_kackers_example():
    # Kacker (2004)'s example as rma(y, v, method="PM", control=list(tol=1e-9)) prints it, in
    # statsmodels 0.15.0 (the wheel requirements.lock pins), statsmodels/stats/tests/results/
    # results_meta.py:16-17 (y, v), :24 b, :26 se, :29-30 ci, :32 tau2, :43 QE, :47 I2 (in %).
    y = [61.0, 61.4, 62.21, 62.3, 62.34, 62.6, 62.7, 62.84, 65.9]
    v = [0.2025, 1.2100, 0.0900, 0.2025, 0.3844, 0.5625, 0.0676, 0.0225, 1.8225]
    p = pool(y, v, method="pm")
    assert (p.k, p.method) == (9, "pm")
    # the Holder keeps R's full digits; metafor iterated to tol=1e-9, so six decimals are compared
    printed = {"estimate": 62.4076199113286, "se": 0.338030602684471, "ci_low": 61.7450921043947,
               "ci_high": 63.0701477182625, "tau2": 0.705395309224248, "q": 24.801897741835,
               "i2": 83.7218626490482 / 100}
    assert {f: round(getattr(p, f), 6) for f in printed} == {f: round(x, 6) for f, x in printed.items()}


def test_a_negative_tau2_is_truncated_and_the_estimate_is_the_fixed_effect_one():
    """By hand: three effects 0.1, 0.2, 0.3 of variance 1: the fixed-effect mean 0.2, se sqrt(1/3),
    Q = 0.02 below its 2 degrees of freedom, so DerSimonian-Laird's tau² (Q - 2)/c < 0 becomes 0 and
    I² is 0; the prediction interval is 0.2 ± t(0.975, 1)·sqrt(1/3), t = 12.706 (NIST's table)."""
    p = pool([0.1, 0.2, 0.3], [1, 1, 1])
    assert (p.tau2, p.i2) == (0.0, 0.0)
    assert round(p.estimate, 12) == 0.2
    assert round(p.se, 12) == round(math.sqrt(1 / 3), 12)
    assert round(p.q, 12) == 0.02
    assert (round(p.ci_low, 4), round(p.ci_high, 4)) == (
        round(0.2 - 1.959964 * math.sqrt(1 / 3), 4), round(0.2 + 1.959964 * math.sqrt(1 / 3), 4))
    assert (round(p.pi_low, 3), round(p.pi_high, 3)) == (
        round(0.2 - 12.706 * math.sqrt(1 / 3), 3), round(0.2 + 12.706 * math.sqrt(1 / 3), 3))


def test_identical_effects_pool_without_a_warning_and_with_q_0():
    """statsmodels' DerSimonian-Laird tau² is (0 - 2) / (3 - 1) = -1 here, so its weights 1/(1 + tau²)
    divide by 0, and its Q is a difference that rounds below 0: neither may reach the result."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = pool([0.1, 0.1, 0.1], [1, 1, 1])
    assert (p.estimate, p.tau2, p.i2, p.q) == (0.1, 0.0, 0.0, 0.0)
    assert round(p.se, 12) == round(math.sqrt(1 / 3), 12)


def test_as_data_is_every_field_as_a_plain_value():
    p = pool([0.1, 0.2], [1, 1], prediction=None)
    data = p.as_data()
    assert list(data) == ["k", "estimate", "se", "ci_low", "ci_high", "pi_low", "pi_high", "tau2", "i2", "q",
                          "method"]
    assert (data["k"], data["pi_low"], data["pi_high"], data["tau2"], data["method"]) == (2, None, None, 0.0, "dl")
    assert all(type(data[f]) is float for f in ("estimate", "se", "ci_low", "ci_high", "tau2", "i2", "q"))
    assert isinstance(p, Pooled) and Pooled(**data) == p


@pytest.mark.parametrize(("call", "message"), [
    (lambda: pool([0.1], [0.1]), "pool: 1 study; pooling needs at least 2"),
    (lambda: pool([], []), "pool: 0 studies; pooling needs at least 2"),
    (lambda: pool([0.1, 0.2], [0.1, 0.1]),
     "pool: a prediction interval needs at least 3 studies; there are 2 (prediction=None pools without one)"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, 0.1]), "pool: 3 effects but 2 variances; each study needs one of each"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, 0.0, 0.1]),
     "pool: the variance of study 2 is 0.0; a variance must be a positive finite number"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, 0.1, -0.5]),
     "pool: the variance of study 3 is -0.5; a variance must be a positive finite number"),
    (lambda: pool([0.1, 0.2, 0.3], [float("inf"), 0.1, 0.1]),
     "pool: the variance of study 1 is inf; a variance must be a positive finite number"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, float("nan"), 0.1]),
     "pool: the variance of study 2 is nan; a variance must be a positive finite number"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, "0.1", 0.1]),
     "pool: the variance of study 2 is '0.1'; a variance must be a positive finite number"),
    (lambda: pool([0.1, float("nan"), 0.3], [0.1, 0.1, 0.1]),
     "pool: the effect of study 2 is nan; an effect must be a finite number"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, 0.1, 0.1], method="reml"),
     "pool: method 'reml' is not one of dl, pm (statsmodels has no REML)"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, 0.1, 0.1], prediction="normal"),
     "pool: prediction 'normal' is not 't', 'z' or None"),
    (lambda: pool([0.1, 0.2, 0.3], [0.1, 0.1, 0.1], level=95),
     "level 95 is not a number between 0 and 1 (0.95 for 95%)"),
    (lambda: prediction_interval(estimate=0.0, se=0.1, tau2=0.1, k=2),
     "a prediction interval needs at least 3 studies; there are 2"),
    (lambda: prediction_interval(estimate=0.0, se=0.1, tau2=0.1, k=5, prediction=None),
     "prediction_interval: prediction None is not 't' or 'z'"),
])
def test_refusals_name_what_is_wrong(call, message):
    with pytest.raises(ValueError) as caught:
        call()
    assert str(caught.value) == message
