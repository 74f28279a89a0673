"""Away and back in real browsers (``pytest -m browser``): the creator chooses the time a
person may be away on the start page, the creator's page says it, and once a phone has gone
(its page closed) the other phone's page shows that person away with a countdown that ticks
down in the browser, without a reload by hand.  Bounded: the server's grace (ten seconds)
and a few seconds of the countdown."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.test_web_browser import READY, _click
from tests.test_web_phones import phones, served

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not READY, reason="needs chromium, chromium-driver, selenium "
                                                   "and the web extra")]

__all__ = ["phones", "served"]  # the fixtures


def _seconds(text: str) -> int:
    minutes, _, seconds = text.partition(":")
    return 60 * int(minutes) + int(seconds)


def test_the_creator_chooses_the_away_time_and_the_other_phone_counts_down(
        served: str, phones: Callable[[], Any]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    creator = phones()
    creator.get(served)
    Select(creator.find_element(By.ID, "play")).select_by_value("herzla/normal")
    Select(creator.find_element(By.ID, "opponents")).select_by_value("heuristic")
    Select(creator.find_element(By.ID, "people")).select_by_value("2")
    away = Select(creator.find_element(By.ID, "away"))
    assert away.first_selected_option.get_attribute("value") == "120"  # two minutes
    away.select_by_value("60")
    _click(creator, creator.find_element(By.ID, "sit-down"))
    assert "away for 1 minute" in creator.find_element(By.ID, "away-after").text
    links = [a.get_attribute("href")
             for a in creator.find_elements(By.CSS_SELECTOR, "#seats .link a")]
    assert len(links) == 2
    first, second = phones(), phones()
    first.get(links[0])
    second.get(links[1])
    time.sleep(1)
    second.get("about:blank")  # the second phone's page is gone: it polls no more
    countdown = WebDriverWait(first, 40, poll_frequency=0.5).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#away-1 [data-countdown]"))[0]
    before = _seconds(countdown.text)
    assert 0 < before <= 60
    time.sleep(2.5)
    after = _seconds(first.find_element(By.CSS_SELECTOR, "#away-1 [data-countdown]").text)
    assert before - 4 <= after < before  # it ticks in the browser
