"""What the evidence's documents are: date, type and subject organisation, from the graph.

Date and type are the Document node's metadata (the loaders read ``Date:`` / ``Type:`` /
``Source:`` lines under the title). The subject is the entity the document's title (or an
explicit ``Source:`` naming an organisation) names through the graph's own aliases, so "ABC
Annual Plan 2026/27" is about the entity whose alias is "ABC"; a title that names only itself
(an encyclopedia page) has itself as subject.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from graph_store.read_model import AliasMatch, GraphReadModel


@dataclass(frozen=True)
class DocMeta:
    date: str = ""
    doc_type: str = ""
    subject: str = ""  # entity name, "" when the title names no entity
    # The title without its subject's name, lower case ("ABC Annual Plan 2026/27" -> "annual
    # plan 2026/27"): documents of one kind about different subjects share it. "" when the
    # title is only a name.
    kind: str = ""
    # Every entity the title (or source) names: a document is "about" each of them.
    subject_ids: frozenset[str] = frozenset()
    source: str = ""  # "" when the source is a server path (never shown)


@dataclass
class DocIndex:
    """Metadata per chunk and per document, fetched once per chunk."""

    model: GraphReadModel
    chunks: dict[str, str] = field(default_factory=dict)  # chunk id -> doc id
    docs: dict[str, DocMeta] = field(default_factory=dict)

    def load(self, chunk_ids: Iterable[str]) -> None:
        missing = [c for c in dict.fromkeys(chunk_ids) if c not in self.chunks]
        if not missing:
            return
        details = self.model.chunk_details(missing)
        for chunk_id in missing:
            d = details.get(chunk_id)
            if d is None:
                self.chunks[chunk_id] = ""
                continue
            self.chunks[chunk_id] = d.doc_id
            if d.doc_id not in self.docs:
                self.docs[d.doc_id] = self._meta(d.doc_title, d.source, d.doc_type, d.date)

    def of_chunk(self, chunk_id: str) -> DocMeta:
        self.load([chunk_id])
        return self.docs.get(self.chunks.get(chunk_id, ""), DocMeta())

    def _meta(self, title: str, source: str, doc_type: str, date: str) -> DocMeta:
        shown_source = "" if _is_path(source) else source
        matches = self.model.alias_matches(title) if title.strip() else []
        words = title.split()
        if len(words) >= _SHORTEST_COMPOSITE and any(_whole(m, title) for m in matches):
            # The matcher keeps the longest name, and a title is usually an entity itself
            # ("ABC Annual Plan"): the names inside it are found without its last word.
            matches += self.model.alias_matches(" ".join(words[:-1]))
        if shown_source:
            matches += self.model.alias_matches(shown_source)
        subject = _subject_match(title, matches)
        return DocMeta(
            date=date,
            doc_type=doc_type,
            subject=subject.name if subject else "",
            kind=_kind(title, subject),
            subject_ids=frozenset(m.entity_id for m in matches),
            source=shown_source,
        )


# Titles of fewer words ("Ada Lovelace") are one name: a word of them is not a subject.
_SHORTEST_COMPOSITE = 3


def _whole(match: AliasMatch, title: str) -> bool:
    return match.span.casefold() == title.strip().casefold() or (
        match.start == 0 and (match.end >= len(title.split()) - 1)
    )


def _subject_match(title: str, matches: list[AliasMatch]) -> AliasMatch | None:
    """The first name in the title that is not the whole title; the whole title's entity when
    it names nothing else."""
    parts = [m for m in matches if not _whole(m, title)]
    return min(parts or matches, key=lambda m: (m.start, -(m.end - m.start)), default=None)


def _kind(title: str, subject: AliasMatch | None) -> str:
    if subject is None or _whole(subject, title):
        return ""
    rest = title.replace(subject.span, " ", 1) if subject.span in title else ""
    return " ".join(rest.casefold().split())


def _is_path(source: str) -> bool:
    return source.startswith(("/", "\\", "file:", ".")) or (len(source) > 2 and source[1] == ":")
