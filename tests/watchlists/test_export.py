"""/watchlists/<uuid>/export.csv: the watchlist's companies with their risk class, score and active
flags, as the member's role reads them; another organisation's watchlist is 404."""

import csv
import io

from tests.watchlists.helpers import create, paste


def _rows(response) -> list[dict]:
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8").lstrip("\ufeff"))))


def test_it_writes_each_company_with_its_risk_and_flags(member, companies):
    client = member.client()
    watchlist = create(client, "Periodic review")
    paste(client, watchlist, "\n".join(c.org_nr for c in companies))
    assert 'data-testid="watchlist-export"' in client.get(f"/watchlists/{watchlist}/").content.decode()

    response = client.get(f"/watchlists/{watchlist}/export.csv")

    assert response["Content-Disposition"].startswith('attachment; filename="watchlist-periodic-review-')
    rows = {row["Company"]: row for row in _rows(response)}
    assert set(rows) == {"Havbris Teknologi AS", "Fjellvann Bygg AS", "Stille Holding AS"}
    assert rows["Havbris Teknologi AS"]["Organisation number"] == "NO913748174"
    assert "Negative total equity" in rows["Fjellvann Bygg AS"]["Active flags"]
    assert rows["Stille Holding AS"]["Active flags"] == "Missing accounts"
    assert rows["Havbris Teknologi AS"]["Risk class"] and float(rows["Havbris Teknologi AS"]["Risk score"]) >= 0
    assert all(row["Added"] and row["Company uuid"] for row in rows.values())


def test_another_organisations_watchlist_is_not_found(member, other_member):
    theirs = create(other_member.client(), "Theirs")
    assert member.client().get(f"/watchlists/{theirs}/export.csv").status_code == 404
