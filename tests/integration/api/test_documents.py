"""Documents over HTTP: upload, server-side ingest inside the roots, pagination, delete, on the
embedded store and on Neo4j."""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from api.app import create_app
from api.config import ApiSettings
from kg.container import Container
from tests.conftest import DEMO
from tests.integration.api.conftest import MAX_REQUEST, MAX_UPLOAD, assert_problem
from tests.integration.api.live import live_server
from tests.stores import both_stores

pytestmark = both_stores

NOTE = "# Harbour Board note\n\nThe Harbour Board funds the Lantern Project in Eastmere."


def _upload(
    client: httpx.Client, *files: tuple[str, bytes], key: str | None = None
) -> httpx.Response:
    return client.post(
        "/v1/documents",
        files=[("files", (name, data, "text/plain")) for name, data in files],
        data={"key": key} if key is not None else None,
    )


def test_upload_list_and_reupload(rw_client: httpx.Client) -> None:
    first = _upload(rw_client, ("harbour.md", NOTE.encode()))
    assert first.status_code == 200, first.text
    report = first.json()
    assert (report["added"], report["unchanged"], report["failed"]) == (1, 0, [])
    assert report["chunks_written"] >= 1
    assert report["seconds"] > 0, "the upload's own time, not 0.0"

    listed = rw_client.get("/v1/documents").json()
    assert listed["total"] == 1
    (doc,) = listed["items"]
    assert doc["uri"].startswith("upload:") and doc["uri"].endswith("/harbour.md")
    assert doc["title"] == "Harbour Board note"
    assert report["documents"] == [{"id": doc["id"], "uri": doc["uri"], "title": doc["title"]}]

    # Same name, same content: the document id is stable, so nothing is written again.
    again = _upload(rw_client, ("harbour.md", NOTE.encode())).json()
    assert (again["added"], again["unchanged"]) == (0, 1)
    assert again["documents"][0]["id"] == doc["id"]


def test_same_name_different_files_are_two_documents(rw_client: httpx.Client) -> None:
    """Two teams upload their own "minutes.md": neither replaces the other."""
    one = _upload(
        rw_client, ("minutes.md", b"# Lantern minutes\n\nThe Lantern Project met.")
    ).json()
    two = _upload(rw_client, ("minutes.md", b"# Harbour minutes\n\nThe Harbour Board met.")).json()
    assert (one["added"], two["added"], two["updated"]) == (1, 1, 0)
    assert one["documents"][0]["id"] != two["documents"][0]["id"]
    titles = {d["title"] for d in rw_client.get("/v1/documents").json()["items"]}
    assert titles == {"Lantern minutes", "Harbour minutes"}


def test_a_key_replaces_its_document_on_purpose(rw_client: httpx.Client) -> None:
    first = _upload(rw_client, ("harbour.md", NOTE.encode()), key="board/harbour").json()
    (doc,) = first["documents"]
    assert doc["uri"] == "upload:board/harbour"
    changed = NOTE + " It opens in May."
    again = _upload(rw_client, ("harbour-v2.md", changed.encode()), key="board/harbour").json()
    assert (again["added"], again["updated"]) == (0, 1)
    assert again["documents"][0]["id"] == doc["id"]
    assert rw_client.get("/v1/documents").json()["total"] == 1
    two = _upload(rw_client, ("a.md", NOTE.encode()), ("b.md", NOTE.encode()), key="k")
    assert "one document" in assert_problem(two, 422)["detail"]
    assert_problem(_upload(rw_client, ("c.md", NOTE.encode()), key="../up"), 422)


def test_pagination_covers_every_document_once(rw_client: httpx.Client) -> None:
    files = [
        (f"note-{i}.md", f"# Note {i}\n\nThe Lantern Project note number {i}.".encode())
        for i in range(5)
    ]
    assert _upload(rw_client, *files).json()["added"] == 5
    seen: list[str] = []
    for offset in range(0, 6, 2):
        page = rw_client.get("/v1/documents", params={"offset": offset, "limit": 2}).json()
        assert page["total"] == 5
        assert (page["offset"], page["limit"]) == (offset, 2)
        assert len(page["items"]) == min(2, 5 - offset)
        seen += [d["id"] for d in page["items"]]
    assert len(set(seen)) == 5
    assert rw_client.get("/v1/documents", params={"offset": 10}).json()["items"] == []
    assert_problem(rw_client.get("/v1/documents", params={"limit": 51}), 422)
    assert_problem(rw_client.get("/v1/documents", params={"offset": -1}), 422)


def test_delete_then_unknown(rw_client: httpx.Client) -> None:
    _upload(rw_client, ("harbour.md", NOTE.encode()))
    (doc,) = rw_client.get("/v1/documents").json()["items"]
    deleted = rw_client.delete(f"/v1/documents/{doc['id']}")
    assert deleted.json() == {"id": doc["id"], "title": "Harbour Board note", "deleted": True}
    assert rw_client.get("/v1/stats").json()["documents"] == 0
    assert_problem(rw_client.delete(f"/v1/documents/{doc['id']}"), 404)
    assert_problem(rw_client.delete("/v1/documents/doc-0000000000000000"), 404)


def test_too_large_upload_is_413(rw_client: httpx.Client) -> None:
    # Over the per-file limit but inside the request limit: refused while being saved.
    big = b"The Lantern Project. " * (MAX_UPLOAD // 20)
    body = assert_problem(_upload(rw_client, ("big.md", big)), 413)
    assert "big.md" in str(body["detail"])
    # Over the whole-request limit: refused from Content-Length before the body is read.
    huge = b"x" * (MAX_REQUEST + 1)
    body = assert_problem(_upload(rw_client, ("huge.md", huge)), 413)
    assert "KG_API__MAX_REQUEST_BYTES" in str(body["detail"])
    assert rw_client.get("/v1/stats").json()["documents"] == 0


def test_unusable_uploads_are_reported(rw_client: httpx.Client) -> None:
    mixed = _upload(rw_client, ("good.md", NOTE.encode()), ("binary.txt", b"\x00\x01\x02abc"))
    assert mixed.status_code == 200
    report = mixed.json()
    assert report["added"] == 1
    assert [f["source"] for f in report["failed"]] == ["binary.txt"]
    only_bad = _upload(rw_client, ("empty.md", b"   "), ("data.exe", b"MZ"))
    body = assert_problem(only_bad, 422)
    assert {e["source"] for e in body["errors"]} == {"empty.md", "data.exe"}  # type: ignore[attr-defined]


def test_ingest_inside_the_roots(rw_client: httpx.Client, ingest_root: Path) -> None:
    for name in ("nmht-priorities-next-12-months.md", "nhcp-about-the-partnership.md"):
        (ingest_root / name).write_bytes((DEMO / name).read_bytes())
    response = rw_client.post("/v1/ingest", json={"paths": [str(ingest_root)]})
    assert response.status_code == 200, response.text
    assert response.json()["added"] == 2
    # Relative paths are taken from the first root.
    again = rw_client.post("/v1/ingest", json={"paths": ["nhcp-about-the-partnership.md"]})
    assert again.json()["unchanged"] == 1


def test_paths_outside_the_roots_are_403(
    rw_client: httpx.Client, ingest_root: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text(NOTE, encoding="utf-8")
    for path in (str(outside), "../secret.md", str(ingest_root / ".." / "secret.md"), "/etc"):
        body = assert_problem(rw_client.post("/v1/ingest", json={"paths": [path]}), 403)
        assert "outside the configured ingest roots" in str(body["detail"])
    # A symlink inside a root that points out of it is refused by where it leads.
    os.symlink(outside, ingest_root / "link.md")
    assert_problem(rw_client.post("/v1/ingest", json={"paths": ["link.md"]}), 403)
    # ...and so is one found while walking a folder inside the root.
    (ingest_root / "folder").mkdir()
    os.symlink(outside, ingest_root / "folder" / "escape.md")
    (ingest_root / "folder" / "ok.md").write_text(NOTE, encoding="utf-8")
    walked = rw_client.post("/v1/ingest", json={"paths": ["folder"]}).json()
    assert walked["added"] == 1
    assert [f["reason"] for f in walked["failed"]] == [
        "resolves outside the configured ingest roots"
    ]
    assert rw_client.get("/v1/stats").json()["documents"] == 1


def test_server_side_ingest_is_off_without_roots(container: Container) -> None:
    settings = container.settings.model_copy(update={"api": ApiSettings()})
    with live_server(create_app(settings, container=container)) as url:
        response = httpx.post(f"{url}/v1/ingest", json={"paths": [str(DEMO)]}, timeout=60)
    body = assert_problem(response, 403)
    assert "KG_API__INGEST_ROOTS" in str(body["detail"])
