"""Hand-value and exact-message tests for the shared pure-Python modules (stats, rules, rng),
written against the mutants `make mutate` showed surviving: every ``Statistic`` method, the
one-observation variance, every coercion path of a rule (TOML and --set) with its exact message,
and the ``[rules]`` table form of a rules file."""
import math
from dataclasses import dataclass

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.rng import block_layout, resolve_seed
from analyzer.rules import (build_rules, describe_rules, load_toml, parse_set, rule,
                            rules_to_dict)
from analyzer.stats import Statistic, mean_from_sums, paired_difference, verdict, wilson

Z = 1.959963984540054


# ---------------------------------------------------------------- statistics
def test_statistic_methods_hand_values():
    s = Statistic(0.25, 0.5, -0.75, 1.25, 40)
    assert s.half_width == 1.0
    assert s.to_json() == {"estimate": 0.25, "se": 0.5, "ci_low": -0.75, "ci_high": 1.25, "n": 40}
    e = s.with_exact(0.125)
    assert (e.estimate, e.se, e.ci_low, e.ci_high, e.n, e.exact_value) == (
        0.25, 0.5, -0.75, 1.25, 40, 0.125)
    assert e.to_json()["exact_value"] == 0.125
    assert e.z_from_exact() == 0.25
    assert s.contains_zero()
    assert Statistic(0.0, 0.0, 0.0, 0.0, 1).contains_zero()      # both ends inclusive
    assert not Statistic(1.0, 0.1, 0.5, 1.5, 9).contains_zero()
    assert not Statistic(-1.0, 0.1, -1.5, -0.5, 9).contains_zero()
    assert s.format(2) == "0.25 ± 0.50 [-0.75, 1.25]"
    assert s.format() == "0.2500 ± 0.5000 [-0.7500, 1.2500]"
    with pytest.raises(ValueError, match="^no exact value attached$"):
        s.z_from_exact()


def test_z_from_exact_with_zero_se():
    assert Statistic(0.5, 0.0, 0.5, 0.5, 10, 0.5).z_from_exact() == 0.0
    assert Statistic(0.5, 0.0, 0.5, 0.5, 10, 0.5 + 1e-13).z_from_exact() == 0.0
    assert Statistic(0.5, 0.0, 0.5, 0.5, 10, 0.4).z_from_exact() == math.inf
    assert Statistic(0.5, 0.0, 0.5, 0.5, 10, 0.5 - 2e-12).z_from_exact() == math.inf
    assert Statistic(0.0, 0.0, 0.0, 0.0, 10, 1e-12).z_from_exact() == math.inf  # strict bound


def test_sizes_must_be_positive():
    for f, args in ((wilson, (0, 0)), (mean_from_sums, (0.0, 0.0, 0)),
                    (mean_from_sums, (1.0, 1.0, -1))):
        with pytest.raises(ValueError, match="^n must be positive$"):
            f(*args)


def test_mean_of_one_observation_has_zero_se():
    s = mean_from_sums(3.0, 9.0, 1)
    assert (s.estimate, s.se, s.ci_low, s.ci_high, s.n) == (3.0, 0.0, 3.0, 3.0, 1)
    two = mean_from_sums(3.0, 5.0, 2)  # x = 1, 2: variance 0.5
    assert two.se == pytest.approx(0.5) and two.n == 2


def test_negative_rounding_of_the_variance_is_clamped():
    s = mean_from_sums(0.3, 0.03, 3)  # x = 0.1 three times: S2 - S1²/n is about -3e-18
    assert s.se == 0.0


def test_wilson_with_another_z_and_the_clamps():
    s = wilson(5, 10, z=1.0)
    centre, half = (0.5 + 1 / 20) / 1.1, math.sqrt(0.025 + 1 / 400) / 1.1
    assert s.ci_low == pytest.approx(centre - half) and s.ci_high == pytest.approx(centre + half)
    assert isinstance(s.n, int) and s.n == 10
    one = wilson(1, 1)
    assert one.ci_high == 1.0 and one.ci_low == pytest.approx(1 / (1 + Z * Z))
    assert wilson(0, 1).ci_low == 0.0


def test_paired_difference_and_verdict():
    d = paired_difference(6.0, 10.0, 4)  # d = 1, 1, 2, 2: mean 1.5, var 1/3
    assert d.estimate == 1.5 and d.se == pytest.approx(math.sqrt(1 / 12))
    assert verdict(d, "A", "B") == "A"
    assert verdict(paired_difference(-6.0, 10.0, 4), "A", "B") == "B"
    assert verdict(paired_difference(0.0, 4.0, 4), "A", "B") == "too close to call"


# ---------------------------------------------------------------- seeds and blocks
def test_resolve_seed_and_block_layout():
    assert resolve_seed(5) == (5, False)
    seed, drawn = resolve_seed(None)
    assert drawn and 0 <= seed < 2**63
    assert block_layout(10, 4)[0] == 3 and list(block_layout(10, 4)[1]) == [4, 4, 2]
    assert list(block_layout(8, 4)[1]) == [4, 4]
    assert block_layout(0, 4)[0] == 0 and len(block_layout(0, 4)[1]) == 0


# ---------------------------------------------------------------- rules: every path, exact text
@dataclass(frozen=True)
class _R:
    size: int = rule(4, "board size", min=2, max=9)
    rate: float = rule(0.5, "a rate", min=0.0, max=1.0)
    mode: str = rule("a", "a mode", choices=("a", "b"))
    flag: bool = rule(False, "a flag")
    marks: tuple[int, ...] = rule((), "a list")
    names: list[str] = rule(["x"], "names")


@pytest.mark.parametrize("text,value", [
    ("flag=true", True), ("flag=YES", True), ("flag= on", True), ("flag=1", True),
    ("flag=false", False), ("flag=No", False), ("flag=off ", False), ("flag=0", False),
    ("size= 7 ", 7), ("rate=0.75", 0.75), ("mode= b ", "b"), ("marks=[1, 2]", (1, 2)),
    ("marks=(3,4)", (3, 4)), ("marks=5", (5,)), ("marks=", ()), ("marks=[]", ()),
    ("names=p, q", ["p", "q"]),
])
def test_set_values_parse(text, value):
    key = text.split("=")[0]
    assert getattr(build_rules(_R, None, [text]), key) == value


@pytest.mark.parametrize("text,message", [
    ("flag=maybe", "rule 'flag' must be true or false, got 'maybe'"),
    ("size=abc", "rule 'size' must be an integer, got 'abc'"),
    ("rate=fast", "rule 'rate' must be a number, got 'fast'"),
    ("rate=nan", "rule 'rate' must be a finite number, got 'nan'"),
    ("size=1", "rule 'size' = 1 is below its minimum 2"),
    ("size=10", "rule 'size' = 10 is above its maximum 9"),
    ("mode=c", "rule 'mode' = 'c' is not one of: a, b"),
    ("marks=1,,2", "rule 'marks': an empty item in '1,,2'"),
    ("nope=1", "unknown rule 'nope' in --set (known rules: flag, marks, mode, names, rate, size)"),
    ("size", "--set expects key=value, got 'size'"),
    ("=3", "--set expects key=value, got '=3'"),
])
def test_set_errors_exact_text(text, message):
    with pytest.raises(UserError) as exc:
        build_rules(_R, None, [text])
    assert str(exc.value) == message


def test_set_key_dashes_and_limits_inclusive():
    assert parse_set("bonus-cap = 2") == ("bonus_cap", " 2")
    assert parse_set("a=b=c") == ("a", "b=c")
    r = build_rules(_R, None, ["size=2", "rate=0", "rate=1.0", "size=9"])
    assert (r.size, r.rate) == (9, 1.0)


@pytest.mark.parametrize("toml,message", [
    ("flag = 1", "rule 'flag' must be true or false, got 1"),
    ("size = true", "rule 'size' must be an integer, got True"),
    ("size = 4.0", "rule 'size' must be an integer, got 4.0"),
    ("rate = true", "rule 'rate' must be a number, got True"),
    ("rate = 'x'", "rule 'rate' must be a number, got 'x'"),
    ("rate = inf", "rule 'rate' must be a finite number, got inf"),
    ("mode = 3", "rule 'mode' must be a string, got 3"),
    ("marks = 3", "rule 'marks' must be a list, got 3"),
    ("marks = [1, 20]", None),
    ("other = 1\n[rules]\nsize = 3", "keys outside the [rules] table: other "
                                      "(put every rule under [rules])"),
])
def test_file_errors_exact_text(tmp_path, toml, message):
    f = tmp_path / "r.toml"
    f.write_text(toml)
    if message is None:
        assert build_rules(_R, f).marks == (1, 20)
        return
    with pytest.raises(UserError) as exc:
        build_rules(_R, f)
    assert str(exc.value).endswith(message), str(exc.value)


def test_file_forms_and_order_of_sources(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text("[rules]\nsize = 3\nrate = 1\nmode = 'b'\nnames = ['k']\n")
    r = build_rules(_R, f)
    assert (r.size, r.rate, r.mode, r.names) == (3, 1.0, "b", ["k"])
    assert isinstance(r.rate, float)
    r = build_rules(_R, f, ["size=5"], extra={"size": 4, "flag": True})
    assert (r.size, r.flag) == (5, True)  # defaults < file < extra < --set
    assert build_rules(_R, f, extra={"size": 6}).size == 6
    g = tmp_path / "dash.toml"
    g.write_text("bonus-cap = 1\n")
    with pytest.raises(UserError, match="unknown rule 'bonus_cap' in .*dash.toml"):
        build_rules(_R, g)
    with pytest.raises(UserError, match="unknown rule 'zz' in options"):
        build_rules(_R, None, extra={"zz": 1})


def test_rules_check_hook_runs():
    @dataclass(frozen=True)
    class _C:
        a: int = rule(1, "a")

        def check(self):
            if self.a == 3:
                raise UserError("three")

    with pytest.raises(UserError, match="three"):
        build_rules(_C, None, ["a=3"])


def test_rules_helpers():
    r = build_rules(_R, None, ["marks=1,2"])
    assert rules_to_dict(r)["marks"] == [1, 2] and rules_to_dict(r)["names"] == ["x"]
    rows = describe_rules(_R)
    assert rows[0] == ("size", "4", "board size") and rows[-1] == ("names", "['x']", "names")
    a, b = _R(), _R()
    assert a.names == b.names and a.names is not b.names  # list defaults are not shared


def test_load_toml_limits(tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 9 + "1" + "]" * 9)
    with pytest.raises(UserError) as exc:
        load_toml(deep)
    assert str(exc.value).endswith("nests tables or arrays more than 8 deep")
    ok = tmp_path / "ok.toml"
    ok.write_text("a = " + "[" * 7 + "1" + "]" * 7)
    assert load_toml(ok)["a"]
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 20))
    with pytest.raises(UserError) as exc:
        load_toml(big)
    assert str(exc.value).endswith("is larger than 1 MiB: not a pushluck TOML file")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"a = '\xff'")
    with pytest.raises(UserError) as exc:
        load_toml(bad)
    assert str(exc.value).endswith("is not UTF-8 text (byte 5)")
    with pytest.raises(UserError) as exc:
        load_toml(tmp_path)
    assert str(exc.value) == f"cannot read {tmp_path}: not a regular file"
    with pytest.raises(UserError) as exc:
        load_toml(tmp_path / "none.toml")
    assert str(exc.value) == f"cannot read {tmp_path / 'none.toml'}: no such file"
    edge = tmp_path / "edge.toml"
    edge.write_text("# " + "x" * ((1 << 20) - 3) + "\n")
    assert load_toml(edge) == {}


# ---------------------------------------------------------------- tune: batch means
def test_batch_mean_hand_values():
    from analyzer.tune import batch_mean

    sums = np.array([2.0, 6.0, 4.0])
    counts = np.array([4.0, 4.0, 2.0])  # x_b = 0.5, 1.5, 2; mean = 12/10 = 1.2
    s = batch_mean(sums, counts, 2.0)
    se2 = (4 * 0.7**2 + 4 * 0.3**2 + 2 * 0.8**2) / (2 * 10)
    assert s.estimate == pytest.approx(1.2) and s.se == pytest.approx(math.sqrt(se2))
    assert s.ci_low == pytest.approx(1.2 - 2 * math.sqrt(se2))
    assert s.ci_high == pytest.approx(1.2 + 2 * math.sqrt(se2)) and s.n == 10
    one = batch_mean(np.array([3.0]), np.array([6.0]), 1.96)
    assert one.estimate == 0.5 and math.isnan(one.se)


def test_batch_mean_keeps_the_block_order_of_an_order_sensitive_sum():
    from analyzer.tune import batch_mean

    # 1e16 + 1 − 1e16 …: the float total depends on the order of addition
    sums = np.array([1e16, 1.0, -1e16, 1.0, 0.5, 3.0, -0.25, 1e-3] * 3)
    counts = np.full(sums.size, 1.0)
    est = batch_mean(sums, counts, 1.96).estimate
    assert est == float(sums.sum()) / sums.size
    assert est != float(sums[::-1].sum()) / sums.size or est != float(np.sort(sums).sum()) / 24


def test_rule_metadata_and_list_defaults_built_at_call_time():
    # built inside the test (not at import) so a mutation of rule() is active while it runs
    import dataclasses

    @dataclass(frozen=True)
    class _L:
        sizes: tuple[int, ...] = rule((1, 2), "sizes", min=1, max=5)
        tags: list[str] = rule(["a"], "tags", choices=("a", "b"))
        k: int = rule(3, "k")

    f = {x.name: x for x in dataclasses.fields(_L)}
    assert dict(f["sizes"].metadata) == {"help": "sizes", "min": 1, "max": 5, "choices": None}
    assert dict(f["tags"].metadata) == {"help": "tags", "min": None, "max": None,
                                        "choices": ("a", "b")}
    assert f["k"].default == 3 and f["sizes"].default == (1, 2)
    a, b = _L(), _L()
    assert a.tags == ["a"] and type(a.tags) is list and a.tags is not b.tags
    with pytest.raises(UserError) as exc:
        build_rules(_L, None, ["sizes=1,0"])
    assert str(exc.value) == "rule 'sizes' = 0 is below its minimum 1"
    with pytest.raises(UserError) as exc:
        build_rules(_L, None, ["tags=a,c"])
    assert str(exc.value) == "rule 'tags' = 'c' is not one of: a, b"
    assert build_rules(_L, None, ["sizes=[5]"]).sizes == (5,)
    with pytest.raises(UserError) as exc:
        build_rules(_L, None, ["sizes=[1, 2"])
    assert str(exc.value) == "rule 'sizes' must be an integer, got '[1'"


def test_load_toml_messages_and_depth(tmp_path):
    import tomllib

    bad = tmp_path / "bad.toml"
    bad.write_text("a = [\n\n")
    try:
        tomllib.loads("a = [\n\n")
    except tomllib.TOMLDecodeError as e:
        want = f"{bad} is not valid TOML: {' '.join(str(e).split())}"
    with pytest.raises(UserError) as exc:
        load_toml(bad)
    assert str(exc.value) == want
    tables = tmp_path / "tables.toml"
    tables.write_text("[a.b.c.d.e.f.g.h.i]\nx = 1\n")
    with pytest.raises(UserError, match="more than 8 deep"):
        load_toml(tables)
    empty = tmp_path / "empty.toml"
    empty.write_text("a = " + "[" * 9 + "]" * 9)  # the innermost empty list counts as a level
    with pytest.raises(UserError, match="more than 8 deep"):
        load_toml(empty)
    fine = tmp_path / "fine.toml"
    fine.write_text("[a.b.c.d.e.f]\nx = {}\n")  # 8 levels, the last an empty table
    assert load_toml(fine)["a"]
    (tmp_path / "l1").symlink_to(tmp_path / "l2")
    (tmp_path / "l2").symlink_to(tmp_path / "l1")
    with pytest.raises(UserError) as exc:
        load_toml(tmp_path / "l1")
    assert str(exc.value) == f"cannot read {tmp_path / 'l1'}: Too many levels of symbolic links"


def test_runspec_run_passes_every_setting():
    from analyzer.runner import KernelJob, RunSpec, half_width_of_proportion, run

    def coin(keys, counts):
        out = np.zeros((keys.shape[0], 2))
        out[:, 0] = (keys[:, 0] % np.uint64(7)).astype(np.float64)
        out[:, 1] = counts
        return out

    job = KernelJob("coin", 100, coin, half_width_of_proportion(0))
    a = RunSpec(1000, 5, progress=False).run(job)
    b = run(job, 1000, 5, progress=False)
    assert a.n == 1000 and a.seed == 5 and np.array_equal(a.sums, b.sums)
    p = RunSpec(None, 5, precision=0.5, progress=False).run(job)
    q = run(job, None, 5, precision=0.5, progress=False)
    assert p.stopped_by == q.stopped_by == "precision" and p.n == q.n
    t = RunSpec(None, 5, time_limit=1e-9, precision=1e-12, progress=False).run(job)
    assert t.stopped_by == "time-limit"
