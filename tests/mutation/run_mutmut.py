"""`make mutate`, part 1: mutmut over the pure-Python modules, one group of modules at a time.

Each group (:data:`GROUPS`) names the modules to mutate and the fast tests that exercise them
in-process; it runs in a scratch copy of its own (``$MUTATE_DIR/GROUP``, default
``/tmp/pushluck-mutmut/GROUP``) whose pyproject.toml gets the group's ``only_mutate`` and test
selection (a changed test selection makes mutmut discard every earlier verdict, so groups can
not share a copy). The working tree is never touched. One row per module: killed, survived,
timeout (crash or hang), no tests, and the score
(killed + timeout) / (killed + survived + timeout + no tests).

Usage: python tests/mutation/run_mutmut.py [--jobs N] [--keep] [GROUP ...]
(default: every group; ``--list`` prints them). ``--keep`` resumes an interrupted run: mutmut
keeps every verdict it has, so after changing tests either run afresh or rerun given mutants in
the copy (``cd $MUTATE_DIR/GROUP && PYTHONPATH=$PWD/mutants python -m mutmut run NAME ...``, after
copying the changed test files into ``tests/`` and ``mutants/tests/``).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: group → (modules mutated, tests run). Only tests that call the module in the pytest process
#: count for mutmut (a CLI run in a subprocess is invisible to its call tracing), so each list is
#: the module's fast in-process tests; slow Monte Carlo and kernel tests stay out.
GROUPS: dict[str, tuple[list[str], list[str]]] = {
    "shared": (["analyzer/stats.py", "analyzer/rng.py", "analyzer/rules.py", "analyzer/runner.py"],
               ["tests/test_stats_rng_runner.py", "tests/test_blind_spots.py",
                "tests/test_rng_copies.py", "tests/test_runner_progress.py"]),
    "trash_pandas.score": (["analyzer/games/trash_pandas/score.py"],
                           ["tests/test_trash_pandas_score.py",
                            "tests/test_trash_pandas_whole_rules.py",
                            "tests/test_trash_pandas.py::test_public_scoring_examples",
                            "tests/test_trash_pandas.py::test_scoring_blammo_ties_and_fourth_place",
                            "tests/test_trash_pandas.py::test_scoring_tie_breaks",
                            "tests/test_trash_pandas.py::test_scoring_bad_input"]),
    "gostop.score": (["analyzer/games/gostop/score.py"],
                     ["tests/test_gostop_score.py", "tests/test_gostop_score_flags.py",
                      "tests/test_gostop_pyscore.py"]),
    "ten.score": (["analyzer/games/ten/score.py"],
                  ["tests/test_ten.py", "tests/test_ten_score.py",
                   "tests/test_ten_whole_score.py"
                   "::test_slot_dp_equals_search_on_random_collections",
                   "tests/test_ten_whole_score.py::test_marginal_values_equal_score_differences"]),
    "canasta.score": (["analyzer/games/canasta/score.py"],
                      ["tests/test_canasta.py", "tests/test_canasta_rules.py",
                       "tests/test_canasta_score.py"]),
    "rules": (["analyzer/games/*/rules.py"],
              ["tests/test_game_rules_parsing.py", "tests/test_ten.py", "tests/test_ten_score.py",
               "tests/test_canasta.py", "tests/test_canasta_score.py", "tests/test_gostop_score.py",
               "tests/test_gostop_score_flags.py", "tests/test_magdagdon.py",
               "tests/test_trash_pandas_score.py"]
              + [f"tests/test_trash_pandas.py::test_{t}" for t in (
                  "bust_odds_k_over_6", "bust_odds_after_cards", "stop_or_roll_hand_values",
                  "reaching_all_six_by_always_rolling", "recycle_value_and_five_tokens",
                  "more_cards_never_hurt_when_cards_are_free", "public_scoring_examples",
                  "scoring_bad_input")]
              + [f"tests/test_pig.py::test_{t}" for t in (
                  "decide_is_consistent_with_the_table", "small_goal_exact_by_hand",
                  "policy_parsing")]),
    "tune": (["analyzer/tune.py"],
             ["tests/test_tune_parts.py", "tests/test_report_tune.py::test_tune_errors",
              "tests/test_tune_target.py::test_parsing_targets_and_spaces",
              "tests/test_blind_spots.py::test_batch_mean_hand_values",
              "tests/test_blind_spots.py::test_batch_mean_keeps_the_block_order_of_an_order"
              "_sensitive_sum"]),
    # ---- issue 40: this round's code (decide, positions, whole-game statistics, advice,
    # tune --target, reports). Each selection is the in-process tests of its modules; the
    # contract tests (tests/test_*_contracts.py, tests/test_positions_by_hand.py) were written
    # for these groups.
    "gostop.decide": (["analyzer/games/gostop/decide.py", "analyzer/games/gostop/position.py"],
                      ["tests/test_gostop_decide.py", "tests/test_positions_by_hand.py",
                       "tests/test_sums_to_statistics_contracts.py",
                       "tests/test_precision_contracts.py",
                       "tests/test_decide_crn_contracts.py"
                       "::test_gostop_go_minus_stop_is_the_go_value_shifted",
                       # added 7 Dec 2026: in-process tests of decide/position not selected
                       # before (make_state in the engine and rule-table tests, the list
                       # syntax of positions, rejections without NumPy, sampled verdicts)
                       "tests/test_gostop_engine.py", "tests/test_gostop_rule_table.py",
                       "tests/test_list_syntax.py", "tests/test_decide_rejects_without_numpy.py",
                       "tests/test_sampled_verdict.py"]),
    "gostop.play": (["analyzer/games/gostop/play.py"],
                    ["tests/test_lineup_contracts.py", "tests/test_sums_to_statistics_contracts.py",
                     "tests/test_precision_contracts.py", "tests/test_gostop_engine.py",
                     # added 7 Dec 2026: in-process tests of play.py not selected before
                     "tests/test_gostop_decide.py", "tests/test_gostop_rule_table.py",
                     "tests/test_gostop_fast.py", "tests/test_gostop_score.py"]),
    "canasta.decide": (["analyzer/games/canasta/decide.py", "analyzer/games/canasta/position.py"],
                       ["tests/test_canasta_cli.py", "tests/test_canasta_first_choice.py",
                        "tests/test_positions_by_hand.py",
                        "tests/test_sums_to_statistics_contracts.py",
                        "tests/test_precision_contracts.py",
                        "tests/test_decide_crn_contracts.py"
                        "::test_canasta_both_options_share_their_deals",
                        # added 7 Dec 2026: in-process tests of decide/position not selected
                        # before (engine and rules tests call decide(); the fast tests
                        # parse_position; the rejection tests check_position)
                        "tests/test_canasta_engine.py", "tests/test_canasta_rules.py",
                        "tests/test_canasta_fast.py", "tests/test_canasta_kitty_owner.py",
                        "tests/test_decide_rejects_without_numpy.py",
                        "tests/test_sampled_verdict.py"]),
    "canasta.play": (["analyzer/games/canasta/play.py"],
                     ["tests/test_lineup_contracts.py", "tests/test_sums_to_statistics_contracts.py",
                      "tests/test_canasta.py", "tests/test_canasta_cli.py",
                      # added 7 Dec 2026: in-process tests of play.py not selected before
                      "tests/test_canasta_engine.py", "tests/test_canasta_rules.py",
                      "tests/test_canasta_fast.py", "tests/test_canasta_first_choice.py",
                      "tests/test_canasta_rule_table.py"]),
    "magdagdon.decide": (["analyzer/games/magdagdon/decide.py"],
                         ["tests/test_magdagdon_sim.py", "tests/test_positions_by_hand.py",
                          "tests/test_sums_to_statistics_contracts.py",
                          "tests/test_magdagdon_reroll.py"]),
    "ten.decide": (["analyzer/games/ten/decide.py", "analyzer/games/ten/position.py",
                    "analyzer/games/ten/whole.py"],
                   ["tests/test_ten_whole.py", "tests/test_ten_whole_rules.py",
                    "tests/test_lineup_contracts.py", "tests/test_decide_crn_contracts.py",
                    "tests/test_sums_to_statistics_contracts.py",
                    "tests/test_precision_contracts.py",
                    # added 7 Dec 2026 (fourth run): in-process tests of decide/position not
                    # selected before (the hand-checked end-game positions, play ten's saved
                    # positions, calibrate's frozen positions) and this group's own tests
                    "tests/test_play_ten.py", "tests/test_ten_calibrate.py",
                    "tests/test_ten_position_mutants.py", "tests/test_ten_decide_mutants.py",
                    "tests/test_ten_whole_mutants.py"]
                   + [f"tests/test_ten_decide_exact.py::test_{t}" for t in (
                       "the_last_card_by_hand_for_a_seat_that_is_not_the_active_one",
                       "a_buy_phase_by_hand", "an_auction_from_its_recorded_state_by_hand",
                       "bids_that_cannot_differ_are_listed_once",
                       "identical_bids_play_identically_in_the_kernel",
                       "common_random_numbers_every_choice_sees_the_same_pile",
                       "the_bidding_order_starts_left_of_the_active_seat_by_hand",
                       "a_bid_at_or_below_the_current_one_is_refused",
                       "the_auction_state_round_trips_through_a_position_file",
                       "the_selection_z_by_value",
                       "every_pairs_cross_sum_is_the_sum_of_products_of_single_playouts")]),
    "trash_pandas.decide": (["analyzer/games/trash_pandas/decide.py",
                             "analyzer/games/trash_pandas/position.py",
                             "analyzer/games/trash_pandas/whole.py"],
                            ["tests/test_trash_pandas_whole_decide.py",
                             "tests/test_trash_pandas_whole_engine.py",
                             "tests/test_trash_pandas_whole_rules.py"]),
    "advice": (["analyzer/advice/*.py"],
               ["tests/test_advice.py", "tests/test_advice_policy.py",
                "tests/test_advice_mistakes.py", "tests/test_canasta_rule_table.py",
                "tests/test_gostop_rule_table.py", "tests/test_ten_table_bot.py",
                # added 7 Dec 2026 (adv40): the group's own tests, and the in-process tests of
                # racing, the words and the raced report parts not selected before
                "tests/test_advice_mutants.py", "tests/test_advice_racing.py",
                "tests/test_advice_words.py", "tests/test_game_advice_parts.py"]),
    "tune_target": (["analyzer/tune_target.py"],
                    ["tests/test_tune_target.py", "tests/test_tune_search_contracts.py"]),
    "tune_stats": (["analyzer/confseq.py", "analyzer/tune_stats.py", "analyzer/tune_report.py"],
                   ["tests/test_tune_confseq.py", "tests/test_tune_target.py",
                    "tests/test_tune_search_contracts.py", "tests/test_tune_report_by_hand.py"]),
    "report": (["analyzer/report.py", "analyzer/report_params.py", "analyzer/report_site.py"],
               ["tests/test_report_resume_contracts.py", "tests/test_report_tune.py",
                "tests/test_games_registry.py",
                # added 7 Dec 2026 (adv40): the group's own tests, and in-process tests of
                # report.py / report_site.py not selected before (the rest of
                # test_report_files.py and test_report_site.py run the CLI in a subprocess)
                "tests/test_report_mutants.py", "tests/test_game_advice_parts.py"]
               + [f"tests/test_report_files.py::test_{t}" for t in (
                   "no_two_parts_of_any_shipped_recipe_or_of_report_all_claim_one_path",
                   "parts_returning_the_same_file_names_keep_their_own_files",
                   "a_malformed_manifest_means_recompute",
                   "part_names_that_would_share_a_folder_are_refused",
                   "a_recomputed_part_removes_only_its_own_unchanged_earlier_files",
                   "a_folder_of_the_old_layout_loses_only_the_files_its_manifests_list")]
               + ["tests/test_balance.py::test_a_page_that_detects_a_seat_advantage_drops_"
                  "another_parts_null_result",
                  "tests/test_canasta_cli.py::test_report_parts_and_tune_metrics_are_registered",
                  "tests/test_report_ladder_hook.py::test_the_ladder_part_reads_a_ladder_module"
                  "_as_a_balance_part"]),
}


def copy_tree(dest: Path) -> None:
    """Copy the files git knows (tracked, or untracked and not ignored) to ``dest``."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\n")
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def summarise(scratch: Path) -> list[tuple[str, Counter]]:
    """Per-module status counts read from mutmut's ``.meta`` files (exit code per mutant)."""
    rows = []
    for meta in sorted((scratch / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        counts: Counter = Counter()
        for name, code in data.get("exit_code_by_key", {}).items():
            counts[_status(code)] += 1
        module = str(meta.relative_to(scratch / "mutants"))[: -len(".meta")]
        rows.append((module, counts))
    return rows


def _status(code) -> str:
    """mutmut's own reading of a mutant's exit code, folded into the table's columns."""
    from mutmut.stats import status_by_exit_code

    status = status_by_exit_code[code]
    if status in ("suspicious", "segfault", "timeout"):
        return "timeout"  # the tests noticed: a crash or a hang (listed apart from kills)
    if status == "not checked":
        return "not run"
    return status


def print_table(rows, seconds: float) -> float:
    cols = ("killed", "survived", "timeout", "no tests", "not run")
    # score = (killed + timeout) / (killed + survived + timeout + no tests): a mutant that no
    # selected test reaches counts as surviving
    print(f"\n{'module':48s} " + " ".join(f"{c:>8s}" for c in cols) + "    score")
    total: Counter = Counter()
    for module, c in rows:
        total.update(c)
        print(f"{module:48s} " + " ".join(f"{c[k]:8d}" for k in cols) + f"  {_score(c):6.1%}")
    print(f"{'TOTAL':48s} " + " ".join(f"{total[k]:8d}" for k in cols) + f"  {_score(total):6.1%}")
    print(f"time: {seconds:.0f} s")
    return _score(total)


def _score(c: Counter) -> float:
    judged = c["killed"] + c["survived"] + c["timeout"] + c["no tests"]
    return (c["killed"] + c["timeout"]) / judged if judged else 0.0


def configure(pyproject: Path, modules: list[str], tests: list[str]) -> None:
    """Point the scratch copy's ``[tool.mutmut]`` at one group's modules and tests."""
    import re

    def listed(items):
        return "[" + ", ".join(f'"{x}"' for x in items) + "]"

    text = pyproject.read_text()
    text = re.sub(r"^only_mutate = \[.*?\]", f"only_mutate = {listed(modules)}", text,
                  flags=re.S | re.M)
    text = re.sub(r"^pytest_add_cli_args_test_selection = \[.*?\]",
                  f"pytest_add_cli_args_test_selection = {listed(tests)}", text, flags=re.S | re.M)
    pyproject.write_text(text)


def run_group(name: str, scratch: Path, jobs: int, keep: bool) -> None:
    """mutmut over one group in ``scratch`` (a fresh copy unless ``keep``)."""
    modules, tests = GROUPS[name]
    if scratch.exists() and not keep:
        shutil.rmtree(scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    copy_tree(scratch)
    configure(scratch / "pyproject.toml", modules, tests)
    # mutants/ must exist before Python starts: a PYTHONPATH entry that is missing at start-up
    # is cached by the import system as "no finder" for the whole process, and mutmut forks its
    # stats and test runs from that process. The tests' conftest then failed to import
    # ("No module named 'tests'", pytest exit 4) on the first run in a fresh copy, and
    # `import analyzer` fell through to the venv's editable install of the main repo (unmutated,
    # possibly older code) -- the stats failures seen on 30 Nov and 1 Dec 2026.
    (scratch / "mutants").mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MUTANT_UNDER_TEST")}
    env["PYTHONPATH"] = str(scratch / "mutants")
    env["NUMBA_NUM_THREADS"] = "1"
    print(f"== {name}: {', '.join(modules)}\n   tests: {' '.join(tests)}", flush=True)
    subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs)],
                   cwd=scratch, env=env)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("groups", nargs="*", help="groups to run (default: all)")
    ap.add_argument("--jobs", type=int, default=1, help="mutmut workers (default 1: shared box)")
    ap.add_argument("--keep", action="store_true", help="reuse the scratch copies (resume)")
    ap.add_argument("--list", action="store_true", help="print the groups and exit")
    ap.add_argument("--table", action="store_true",
                    help="only print the table of the scratch copies already there")
    args = ap.parse_args()
    if args.list:
        for name, (modules, tests) in GROUPS.items():
            print(f"{name:20s} {' '.join(modules)}\n{'':20s} tests: {' '.join(tests)}")
        return 0
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        print(f"unknown group(s) {', '.join(unknown)}; groups: {', '.join(GROUPS)}",
              file=sys.stderr)
        return 2
    base = Path(os.environ.get("MUTATE_DIR", "/tmp/pushluck-mutmut"))
    t0 = time.time()
    if not args.table:
        for name in args.groups or list(GROUPS):
            run_group(name, base / name, args.jobs, args.keep)
    rows = [row for name in GROUPS if (base / name / "mutants").is_dir()
            for row in summarise(base / name)]
    print_table(rows, time.time() - t0)
    print(f"surviving mutants: cd {base}/GROUP && {sys.executable} -m mutmut results; "
          f"mutmut show NAME")
    return 0


if __name__ == "__main__":
    sys.exit(main())
