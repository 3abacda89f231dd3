"""``kg bench``: the multi-hop retrieval benchmark, retrieval latency, and their reports."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import TaskID
from rich.table import Table

from core.errors import InputError, KgError
from kg.cli_support import err, fail, out, progress
from kg.settings import get_settings

bench_app = typer.Typer(
    help="Benchmarks: multi-hop recall, retrieval latency.", no_args_is_help=True
)

CorpusOpt = Annotated[Path, typer.Option("--corpus", help="HippoRAG-format corpus JSON.")]
WorkDirOpt = Annotated[
    Path | None,
    typer.Option("--work-dir", help="Where bench stores live (default: <KG_DATA_DIR>/bench)."),
]


StoreOpt = Annotated[
    str,
    typer.Option(
        "--store",
        help="embedded (a Kùzu store per corpus under --work-dir) or neo4j (the database of "
        "KG_NEO4J__*, emptied and rebuilt when it holds anything else).",
    ),
]


def _store(name: str) -> str:
    from bench.store import STORES

    if name not in STORES:
        raise fail(f"unknown store {name!r}; choose from {', '.join(STORES)}")
    return name


def register(app: typer.Typer) -> None:
    # The cost benchmarks (ingest rate, scale) live in their own module; importing it adds
    # its commands to ``bench_app``.
    from kg.commands import bench_perf  # noqa: F401

    app.add_typer(bench_app, name="bench")


@contextmanager
def _bars() -> Iterator[Callable[[str, int, int], None]]:
    with progress() as bars:
        tasks: dict[str, TaskID] = {}

        def hook(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bars.add_task(phase, total=total)
            bars.update(tasks[phase], completed=done, total=total)

        yield hook


def _presets(raw: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in raw.split(",") if p.strip())


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError(str(path), "no such file") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(str(path), f"cannot read results: {exc}") from exc
    if not isinstance(data, dict):
        raise InputError(str(path), "results JSON must be an object")
    return data


def _print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    table = Table(title=title)
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    out.print(table)


@bench_app.command()
def multihop(
    corpus: CorpusOpt,
    questions: Annotated[Path, typer.Option("--questions", help="Questions JSON.")],
    out_path: Annotated[Path, typer.Option("--out", help="Where RESULT.json goes.")],
    presets: Annotated[
        str, typer.Option(help="Comma-separated: bm25, dense, agent, or a kg-first preset.")
    ] = "bm25,dense,hybrid,graph,agent",
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions.")] = None,
    name: Annotated[str, typer.Option(help="Dataset name (default: corpus folder).")] = "",
    work_dir: WorkDirOpt = None,
    store: StoreOpt = "embedded",
) -> None:
    """Recall@2/@5 of every preset on a multi-hop question set, in one run."""
    from bench import multihop as mh
    from bench.report import recall_rows

    config = mh.MultihopConfig(
        corpus, questions, _presets(presets), limit, name, work_dir, _store(store)
    )
    try:
        with _bars() as hook:
            result = mh.run(config, get_settings(), hook)
    except KgError as exc:
        raise fail(str(exc)) from exc
    _write_json(out_path, result)
    reused = "reused" if result["corpus"]["store_reused"] else "built"
    err.print(f"store {reused}: {result['corpus']['store']}", highlight=False)
    _print_table(
        f"{result['dataset']}: {result['counts']['questions']} questions",
        *recall_rows(result),
    )
    out.print(f"wrote {out_path}", highlight=False)


@bench_app.command()
def latency(
    corpus: CorpusOpt,
    out_path: Annotated[Path | None, typer.Option("--out", help="Where to write JSON.")] = None,
    questions: Annotated[int, typer.Option(min=1, help="Timed questions.")] = 100,
    questions_file: Annotated[
        Path | None,
        typer.Option(help="Take questions from this file instead of deriving them from passages."),
    ] = None,
    presets: Annotated[str, typer.Option(help="Comma-separated kg-first presets.")] = "graph,dense",
    warmup: Annotated[int, typer.Option(min=0, help="Untimed warm-up questions.")] = 10,
    k: Annotated[int, typer.Option(min=1, help="Results per search.")] = 5,
    work_dir: WorkDirOpt = None,
    store: StoreOpt = "embedded",
) -> None:
    """p50/p95 retrieval latency per preset on one store, with the ratio to dense."""
    from bench import latency as lat
    from bench.report import latency_rows

    config = lat.LatencyConfig(
        corpus,
        _presets(presets),
        questions,
        questions_file,
        warmup,
        k,
        work_dir=work_dir,
        store=_store(store),
    )
    try:
        with _bars() as hook:
            result = lat.run(config, get_settings(), hook)
    except KgError as exc:
        raise fail(str(exc)) from exc
    if out_path is not None:
        _write_json(out_path, result)
    _print_table(
        f"latency on {result['corpus']['store_kind']}, {result['questions']['timed']} questions, "
        f"k={k}",
        *latency_rows(result),
    )
    out.print(result["questions"]["source"], highlight=False)


@bench_app.command()
def combine(
    results: Annotated[list[Path], typer.Argument(help="RESULT.json files of kg bench multihop.")],
    out_path: Annotated[Path, typer.Option("--out", help="Combined JSON.")],
    png: Annotated[Path | None, typer.Option(help="Bar chart of R@2/R@5.")] = None,
) -> None:
    """Merge per-dataset results into one file (and chart), and print the table."""
    from bench.report import chart, recall_rows
    from bench.report import combine as merge

    try:
        document = merge([_read_json(p) for p in results])
    except KgError as exc:
        raise fail(str(exc)) from exc
    _write_json(out_path, document)
    if png is not None:
        chart(document, png)
    _print_table("multi-hop recall", *recall_rows(document))
    out.print(f"wrote {out_path}" + (f" and {png}" if png else ""), highlight=False)


@bench_app.command()
def table(
    multihop_json: Annotated[Path | None, typer.Option("--multihop")] = None,
    latency_json: Annotated[Path | None, typer.Option("--latency")] = None,
) -> None:
    """Print the README results tables (markdown) from the JSON results."""
    from bench.report import markdown

    if multihop_json is None and latency_json is None:
        raise fail("give --multihop and/or --latency")
    try:
        mh = _read_json(multihop_json) if multihop_json else None
        lat = _read_json(latency_json) if latency_json else None
        text = markdown(mh, lat)
    except KgError as exc:
        raise fail(str(exc)) from exc
    except (KeyError, TypeError) as exc:
        raise fail(f"results JSON lacks an expected field: {exc}") from exc
    typer.echo(text, nl=False)


@bench_app.command()
def qa(
    corpus: CorpusOpt,
    questions: Annotated[Path, typer.Option("--questions", help="Questions JSON with answers.")],
    n: Annotated[int | None, typer.Option("--n", min=1, help="Only the first N questions.")] = None,
    llm: Annotated[
        bool,
        typer.Option(
            "--llm",
            help="Answer each question offline and with the LLM configured by KG_LLM__*, "
            "in one run (else offline only).",
        ),
    ] = False,
    answerers: Annotated[
        str,
        typer.Option(
            "--answerers",
            help="With --llm: comma-separated LLM answerers to run beside offline "
            "(reader, report, synthesis; default: the configured KG_AGENT__LLM_ANSWERER).",
        ),
    ] = "",
    out_path: Annotated[Path | None, typer.Option("--out", help="Where RESULT.json goes.")] = None,
    name: Annotated[str, typer.Option(help="Dataset name (default: corpus folder).")] = "",
    work_dir: WorkDirOpt = None,
) -> None:
    """Answer quality of `kg ask`: EM, F1, answer recall, calibration, seconds per question."""
    from bench import qa as bench_qa
    from bench import qa_pair

    config = bench_qa.QaConfig(corpus, questions, n, work_dir, name)
    try:
        with _bars() as hook:
            if llm:
                chosen = tuple(a.strip() for a in answerers.split(",") if a.strip())
                result = qa_pair.run_pair(config, get_settings(), hook, chosen)
            else:
                result = bench_qa.run(config, get_settings(), hook)
    except KgError as exc:
        raise fail(str(exc)) from exc
    if out_path is not None:
        _write_json(out_path, result)
    count = result["summary"]["offline"]["questions"] if llm else result["summary"]["questions"]
    _print_table(
        f"{result['dataset']}: {count} questions, {result['mode']}",
        *(qa_pair.table_rows(result) if llm else bench_qa.table_rows(result)),
    )
    if out_path is not None:
        out.print(f"wrote {out_path}", highlight=False)


@bench_app.command()
def analyst(
    llm: Annotated[
        bool,
        typer.Option(
            "--llm", help="Also answer with the LLM configured by KG_LLM__* (else offline only)."
        ),
    ] = False,
    questions: Annotated[
        Path | None, typer.Option("--questions", help="Analyst question set JSON.")
    ] = None,
    out_path: Annotated[Path, typer.Option("--out", help="Where RESULT.json goes.")] = Path(
        "bench/results/analyst.json"
    ),
    n: Annotated[int | None, typer.Option("--n", min=1, help="Only the first N questions.")] = None,
    ids: Annotated[
        str, typer.Option("--ids", help="Only these question ids, comma-separated (a01,a07).")
    ] = "",
    answerers: Annotated[
        str,
        typer.Option(
            "--answerers",
            help="With --llm: the LLM answerers to run, comma-separated (synthesis, reader, "
            "report), each a mode 'llm-<name>'; default the configured KG_AGENT__LLM_ANSWERER.",
        ),
    ] = "",
    work_dir: WorkDirOpt = None,
) -> None:
    """The analyst question set over the demo corpus: key points, gold document cited, numbers,
    and unanswerable questions answered as not found; offline and every LLM mode in one run."""
    from bench import analyst as bench_analyst

    try:
        with _bars() as hook:
            result = bench_analyst.run(
                get_settings(),
                questions_path=questions or bench_analyst.QUESTIONS,
                work_dir=work_dir,
                with_llm=llm,
                limit=n,
                progress=hook,
                ids=[i.strip() for i in ids.split(",") if i.strip()],
                answerers=[a.strip() for a in answerers.split(",") if a.strip()],
            )
    except KgError as exc:
        raise fail(str(exc)) from exc
    _write_json(out_path, result)
    count = result["summary"]["offline"]["questions"]
    _print_table(f"analyst: {count} questions", *bench_analyst.table_rows(result))
    out.print(f"wrote {out_path}", highlight=False)
