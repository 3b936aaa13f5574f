"""A browser game filed as a playtest from the page, and a saved record played back in the page move by
move to the same final position (headless chromium, as tests/test_play_browser.py)."""

from __future__ import annotations

import json


from boardlab.analysis.store import ResultStore
from test_play_browser import WAIT_MS, Server, browser  # noqa: F401 (the fixture)


def test_file_from_the_page_then_play_the_record_back(browser, tmp_path):  # noqa: F811
    server = Server("blockd", agents="random,random", store=tmp_path / "r.sqlite")
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    try:
        page.goto(server.url)
        page.wait_for_selector("#board")
        page.fill("#delay", "0")
        page.fill("#seed", "4")
        first = page.evaluate("location.hash")
        page.click("#new")
        page.wait_for_function(f"() => location.hash !== {json.dumps(first)} && document.body.dataset.over === '1'",
                               timeout=WAIT_MS)
        texts = page.eval_on_selector_all("#moves li[data-text]", "items => items.map(li => li.dataset.text)")
        status = page.inner_text("#status")
        page.click("#file")
        page.wait_for_function("() => document.getElementById('filed').textContent.startsWith('Filed as playtest')")
        game_id, token = page.evaluate("location.hash.slice(1)").split(":")
        with ResultStore(server.store) as store:
            [(_, filed)] = store.playtests("blockd")
        assert filed.source == "browser" and filed.record is not None
        record = server.get(f"/api/games/{game_id}/record", token)
        saved = tmp_path / "game.json"
        saved.write_text(json.dumps(record))
        moves = sum(1 for m in record["moves"] if "chance" not in m)
        page.set_input_files("#recordfile", str(saved))
        page.wait_for_function(f"() => document.getElementById('rp-where').textContent === 'move 0 of {moves}'")
        assert page.eval_on_selector_all("#moves li[data-text]", "items => items.length") < len(texts)
        page.click("#rp-next")
        page.wait_for_function(f"() => document.getElementById('rp-where').textContent === 'move 1 of {moves}'")
        page.click("#rp-last")
        page.wait_for_function(f"() => document.getElementById('rp-where').textContent === 'move {moves} of {moves}'")
        assert page.eval_on_selector_all("#moves li[data-text]", "items => items.map(li => li.dataset.text)") == texts
        assert page.inner_text("#status") == status  # the same final position: the same result
        assert not page.inner_text("#error")
        page.click("#rp-leave")
        page.wait_for_function("() => document.getElementById('replaybar').hidden")
    finally:
        page.close()
        server.stop()
