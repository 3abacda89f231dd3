"""A refined answer that repeats the correction request is no answer."""

from __future__ import annotations

from agents.prompt_files import load
from agents.synthesis import echoes


def _request(problem: str) -> str:
    prompt = load("refine")
    return prompt.system_text() + "\n\n" + prompt.user_message(problems=f"- {problem}")["content"]


def test_an_answer_made_of_the_request_echoes_it() -> None:
    request = _request("the answer states nothing but citations: write the answer in words")
    assert echoes("The answer states nothing but citations: write the answer in words", request)
    assert echoes("A checker found problems in your answer. Correct the answer [c1]", request)
    # As the 0.5B model wrote it on a benchmark question: the request without its commas.
    said = (
        "drop or fix every citation that is not an evidence id make every quotation verbatim"
        " from the chunk it cites remove claims the evidence does not support"
    )
    assert echoes(said, request)
    # An answer in its own words, or one too short to compare, does not.
    assert not echoes("The band was formed in 1997 in Los Angeles. [c1]", request)
    assert not echoes("[c1] [c2]", request)
