"""The reader: what a question asks and which evidence sentences answer it, read once.

The floor between retrieval/extraction and the agents. ``reader.question`` reads a question
(its parts, the kind of answer each asks for, its words as spaCy lemmas from ``reader.text``);
``reader.sentence_rank`` scores every evidence sentence for every part; ``reader.extractive``
computes the question's ``Reading`` (each part's answer, the extractive answer, the ranked
sentences), which the agents' answerers and confidence step share. Its settings are
``reader.settings.ReaderSettings`` (``KG_AGENT__READER__*``). It imports no agent module.
"""
