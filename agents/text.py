"""The reader's text toolkit: word, year and name-span patterns and the joiner sets, in one place.

These were copied from module to module and drifted; they are gathered here unchanged, each
variant named for what it matches, so that answers stay byte-identical. Where two variants
differ, the difference is said beside them: folding them into one is a change to measure, not
a tidy-up. (``core.names.unqualified_name`` strips a title's qualifier.)
"""

from __future__ import annotations

import re

# A word: a letter, then letters, digits, apostrophes and hyphens ("O'Neill", "re-election");
# numbers are not words.
WORD = re.compile(r"[^\W\d_][\w'’\-]*")
# A word or a number ("1,200", "3.5"): the tokens of a question, whose numbers count.
WORD_OR_NUMBER = re.compile(r"[^\W\d_][\w'’\-]*|\d[\d,.]*")

# A year from 1000 to 2099 ("1961").
YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
# The same, or its decade ("the 1960s"): a date an answer may give.
YEAR_OR_DECADE = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})s?\b")

# Lower-case words inside a name ("Bank of England", "Ludwig van Beethoven").
NAME_JOINER_WORDS = "of|the|and|de|von|van"
NAME_JOINERS = frozenset(NAME_JOINER_WORDS.split("|"))
# The same and the particles of titles and places ("Leonardo da Vinci", "Stratford on Avon"):
# words that do not count against a title being a name.
TITLE_JOINERS = NAME_JOINERS | {"da", "du", "la", "le", "in", "on"}

# Capitalised words in a row ("Marta Kowal"), no joiners: the names of a list in a sentence.
NAME_WORDS = r"[A-Z][\w'’.\-]*(?:\s+[A-Z][\w'’.\-]*)*"
# A name that may open with "the", with joiners and numbered words ("the Bank of England",
# "Apollo 11"): an option at a question's end.
OPTION_SPAN = (
    r"(?:the\s+)?[A-Z][\w'’.\-]*(?:\s+(?:(?:of|the|and the|de|von|van)\s+)?[A-Z0-9][\w'’.\-]*)*"
)
# A name in a question, not inside a word, with joiners ("Escape from the Dark", "Géza von
# Cziffra").
QUESTION_NAME = re.compile(
    r"(?<![\w'’])[A-Z][\w'’\-]*(?:\s+(?:(?:of|the|from|von|van|de|la|and the)\s+)?[A-Z][\w'’\-]*)*"
)
