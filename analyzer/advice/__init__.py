"""Rules of thumb a person can remember (`pushluck <game> advice`).

Modules: ``search`` (features, decisions, rules in words and as data, the exact search and the
Pareto front), ``race`` (Monte Carlo racing of candidate rules on common random numbers),
``cli`` (the options and printing shared by every game's `advice` command), ``words`` (the
sentence to remember, the table and the race's cost in words, fitting 80 columns), ``report``
(the front as report-part files). Each game declares its features and evaluator in its own
``analyzer/games/<game>/advice.py``.
"""
from analyzer.advice.search import (Decision, Feature, Rule, Scored, Searcher, exact_search,
                                    pareto, rule_row, simplest_within)

__all__ = ["Decision", "Feature", "Rule", "Scored", "Searcher", "exact_search", "pareto",
           "rule_row", "simplest_within"]
