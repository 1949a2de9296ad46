"""A bundle's files are data: published as text whatever the bundle names them, never run by a browser,
and downloadable under any name the bundle allows (issue #49, holes 1 and 8).

The hostile bundle (tests/fixtures/hostile/hostile-artifacts) declares three sysbench logs named
evil.js (the log in a comment, then a script), evil.html (script elements, then the log) and evil.svg
(the same in SVG), which validate as logs with warnings, and two logs named ``q?x=1#frag.log`` and
``%2e%2e%2fup.log``. Published under their own names (the code before this test), opening the .html
or the .svg ran the script on the site's own origin, past its CSP."""

from __future__ import annotations

import urllib.request

import pytest

from conftest import FIXTURES, build_with_bundle, serve_folder

STUDY = "hostile-artifacts"
BUNDLE = FIXTURES / "hostile" / STUDY
NAMES = {"evil-js": "evil.js", "evil-html": "evil.html", "evil-svg": "evil.svg",
         "odd-query": "q?x=1#frag.log", "odd-percent": "%2e%2e%2fup.log"}


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    layout = build_with_bundle(tmp_path_factory.mktemp("hostile"), BUNDLE)
    server = serve_folder(layout.public)
    yield layout, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


def test_each_artifact_is_published_as_text_under_its_id(hostile_site):
    layout, _ = hostile_site
    published = sorted(p.relative_to(layout.public).as_posix()
                       for p in (layout.public / "raw" / STUDY).rglob("*") if p.is_file())
    assert published == sorted(f"raw/{STUDY}/{artifact}.txt" for artifact in NAMES)
    for artifact, name in NAMES.items():
        assert (layout.public / "raw" / STUDY / f"{artifact}.txt").read_bytes() == \
            (BUNDLE / "artifacts" / name).read_bytes()
    # no file of the bundle's names anywhere in the site, and nothing but the pages under /artifacts/<study>/
    assert not [p for p in layout.public.rglob("*") if p.name in NAMES.values()]
    assert sorted(p.relative_to(layout.public / "artifacts" / STUDY).as_posix()
                  for p in (layout.public / "artifacts" / STUDY).rglob("*") if p.is_file()) == \
        sorted(f"{artifact}/index.html" for artifact in NAMES)


def test_the_download_link_works_for_any_name_and_keeps_the_original(hostile_site, page):
    _, url = hostile_site
    for artifact, name in NAMES.items():
        page.goto(f"{url}/artifacts/{STUDY}/{artifact}/")
        link = page.get_by_role("link", name="Download the file")
        assert link.get_attribute("download") == name
        href = link.get_attribute("href")
        assert href == f"/raw/{STUDY}/{artifact}.txt"
        with urllib.request.urlopen(url + href) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "text/plain; charset=utf-8"
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.read() == (BUNDLE / "artifacts" / name).read_bytes()
    assert page.errors == []


def test_no_script_of_an_artifact_runs(hostile_site, browser):
    """Every way in: the artifacts' pages, their files opened as documents (the .html and .svg first),
    the names they had before, and a page of the site loading the .js artifact as a script. The
    script would set the title and open a dialog."""
    _, url = hostile_site
    context = browser.new_context()
    dialogs: list[str] = []
    context.on("page", lambda pg: pg.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss())))
    page = context.new_page()
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    visited = []
    for artifact, name in NAMES.items():
        for path in (f"/raw/{STUDY}/{artifact}.txt", f"/artifacts/{STUDY}/{artifact}/",
                     f"/artifacts/{STUDY}/{artifact}/{name}"):
            response = page.goto(url + path)
            visited.append((path, response.status))
            page.wait_for_timeout(50)
            assert not page.title().startswith("script ran"), path
    assert [status for _, status in visited] == [200, 200, 404] * len(NAMES)
    page.goto(f"{url}/artifacts/{STUDY}/evil-js/")
    loaded = page.evaluate("""src => new Promise(done => {
        const s = document.createElement("script");
        s.onload = () => done("loaded"); s.onerror = () => done("refused");
        s.src = src; document.head.append(s);
    })""", f"/raw/{STUDY}/evil-js.txt")
    assert loaded == "refused"  # text/plain under nosniff is never a script
    assert dialogs == [] and not page.title().startswith("script ran")
    context.close()
