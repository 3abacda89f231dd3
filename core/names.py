"""Name normalisation and identity: the basis of entity resolution by normalisation."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_NON_WORD = re.compile(r"[^\w\s&]+", re.UNICODE)
_LEADING = re.compile(r"^(the|a|an)\s+")


def normalize_name(name: str) -> str:
    """Case-, accent-, punctuation- and article-insensitive key for a name."""
    # ASCII decomposes to itself and has no combining marks: most names skip the character loop
    # (a question's every n-gram is normalised to look its aliases up).
    if not name.isascii():
        decomposed = unicodedata.normalize("NFKD", name)
        name = "".join(c for c in decomposed if not unicodedata.combining(c))
    text = name.lower()
    text = text.replace("’", "'").replace("'s ", " ")
    text = _NON_WORD.sub(" ", text).replace("_", " ")
    text = " ".join(text.split())
    return _LEADING.sub("", text)


# A bare name matches several qualified titles ("Lilu (mythology)", "Lilu (band)"), so such a
# match is less certain than the full name.
QUALIFIED_CONFIDENCE = 0.8


def unqualified_name(name: str) -> str:
    """The name without a trailing parenthesised qualifier: titles tell namesakes apart by
    one ("Harbour (Ann Lee song)"), questions say "Harbour"."""
    text = name.strip()
    if text.endswith(")") and " (" in text:
        return text[: text.rindex(" (")].strip()
    return text


def entity_id(key: str) -> str:
    return "ent-" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def doc_id(uri: str) -> str:
    return "doc-" + hashlib.sha1(uri.encode("utf-8")).hexdigest()[:16]


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def chunk_id(document_id: str, index: int, text: str) -> str:
    # Prefixed by the document id: relation evidence is taken back by this prefix.
    return f"{document_id}-{index:04d}-{content_hash(text)[:12]}"


def acronym_matches(acronym: str, long_form: str) -> bool:
    """True when the acronym's letters are the initials of the long form's words, in order
    (connectors like 'and'/'of' may be skipped or used)."""
    letters = [c for c in acronym.upper() if c.isalpha()]
    if acronym.endswith("s") and len(letters) > 2:
        letters = letters[:-1]
    words = [w for w in re.split(r"[\s\-–/]+", long_form) if w and w[0].isalpha()]
    initials = [w[0].upper() for w in words]
    major = [w[0].upper() for w in words if w[0].isupper()]
    if letters in (major, initials):
        return True
    # subsequence check over all initials, anchored at the first word
    it = iter(initials)
    # A long form may have no word starting with a letter (a trained NER span like "1990s").
    return (
        bool(letters and initials) and letters[0] == initials[0] and all(c in it for c in letters)
    )
