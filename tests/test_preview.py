"""Netlify deploy previews open every page with a banner naming the pull request and the study pages
it changes; production builds show none."""

from __future__ import annotations

import shutil

import pytest

from conftest import FIRST_SIX, ROOT, copy_project
from ingest.build.site import build_site
from ingest.contribute.preview import preview_data

GRAID = "graid-supremeraid-mysql-2023"


def test_only_a_deploy_preview_has_a_banner():
    assert preview_data(data=ROOT / "data", repo=ROOT, environ={}) is None
    assert preview_data(data=ROOT / "data", repo=ROOT, environ={"CONTEXT": "production"}) is None
    broken = preview_data(data=ROOT / "data", repo=ROOT, environ={
        "CONTEXT": "deploy-preview", "REVIEW_ID": "7", "PREVIEW_BASE": "no-such-ref"})
    assert broken["studies"] is None and broken["why"].startswith("no-such-ref: not a git ref with a data/ folder")


@pytest.fixture(scope="module")
def preview_site(tmp_path_factory):
    """The project with Graid's 22048.90 read as 22148.90, built as Netlify builds pull request 42,
    against the project's data/ (its six studies the site tests are written against) as the base."""
    tmp = tmp_path_factory.mktemp("preview")
    layout = copy_project(tmp / "project")
    base = tmp / "base"
    for study in FIRST_SIX:
        shutil.copytree(ROOT / "data" / study, base / study)
    bundle = layout.data / GRAID / "bundle.yaml"
    bundle.write_text(bundle.read_text(encoding="utf-8").replace(" 22048.90 ", " 22148.90 ", 1), encoding="utf-8")
    shutil.rmtree(layout.data / "seagate-nytro-mysql-2015")
    with pytest.MonkeyPatch.context() as env:
        for name, value in {"CONTEXT": "deploy-preview", "REVIEW_ID": "42", "PREVIEW_BASE": str(base),
                            "REPOSITORY_URL": "https://github.com/example/benchdb"}.items():
            env.setenv(name, value)
        build_site(layout)
    return layout


def test_every_page_names_the_pull_request_and_the_studies_it_changes(preview_site):
    banner = ('<aside class="preview-banner" aria-label="Deploy preview">\n  <p><strong>Deploy preview</strong> of '
              '<a href="https://github.com/example/benchdb/pull/42">pull request #42</a>,\n    not the published site. '
              f'Study pages it changes: <a href="/studies/{GRAID}/">{GRAID}</a>. '
              "Studies it removes: seagate-nytro-mysql-2015.</p>\n</aside>")
    for page in ("index.html", f"studies/{GRAID}/index.html", "explore/index.html",
                 f"embed/{GRAID}--tps-by-users--optimal/index.html"):
        assert banner in (preview_site.public / page).read_text(encoding="utf-8"), page


def test_a_production_build_has_no_banner(preview_site, monkeypatch):
    monkeypatch.setenv("CONTEXT", "production")
    build_site(preview_site)
    assert "preview-banner" not in (preview_site.public / "index.html").read_text(encoding="utf-8")
