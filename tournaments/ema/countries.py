"""The three-letter country codes of the EMA ranking site (docs/ema-export.md, issue 36).

The EMA's results importer (Jesterboxboy/ema_scraper, ``calculators/get_results.py``) looks a
country up by the code in the address of its page on the EMA ranking site
(``ranking/Country/GER_RCR.html``: ``country_link_pattern = r'Country/([A-Z]{3})_'`` in its
``utils/scrapers.py``). Those are the EMA's own codes, the Olympic (IOC) ones, not ISO 3166
alpha-3: GER not DEU, NED not NLD, SUI not CHE, DEN not DNK, POR not PRT.

``EMA_CODES`` is the one table to change: every country whose EMA code differs from its ISO
3166-1 alpha-3 code; every other country is written in ISO alpha-3 (AUT, BEL, FRA, ITA, ...,
the same in both).
"""

from __future__ import annotations

from core.countries import alpha3

# ISO 3166-1 alpha-2 -> the EMA ranking site's code, where it is not the ISO alpha-3 code.
# Seen on the EMA site (ranking/Country/<code>_RCR.html): GER, NED, SUI, DEN, POR; the rest
# are the IOC codes of the same family, for players from further afield.
EMA_CODES: dict[str, str] = {
    "DE": "GER",
    "NL": "NED",
    "CH": "SUI",
    "DK": "DEN",
    "PT": "POR",
    "HR": "CRO",
    "SI": "SLO",
    "BG": "BUL",
    "GR": "GRE",
    "LV": "LAT",
    "MC": "MON",
    "TW": "TPE",
    "MY": "MAS",
    "PH": "PHI",
    "ID": "INA",
    "VN": "VIE",
    "CL": "CHI",
    "ZA": "RSA",
    "SA": "KSA",
    "AE": "UAE",
    "IR": "IRI",
    "NG": "NGR",
    "DZ": "ALG",
    "UY": "URU",
    "PY": "PAR",
    "CR": "CRC",
    "GT": "GUA",
    "HN": "HON",
    "SV": "ESA",
    "NP": "NEP",
    "LK": "SRI",
    "MN": "MGL",
    "KW": "KUW",
    "OM": "OMA",
    "BD": "BAN",
    "MG": "MAD",
    "ZW": "ZIM",
    "ZM": "ZAM",
    "AO": "ANG",
    "PR": "PUR",
    "HT": "HAI",
    "BB": "BAR",
    "TO": "TGA",
    "FJ": "FIJ",
    "VU": "VAN",
}


def ema_country(code: str) -> str:
    """The EMA ranking site's three-letter code of an ISO alpha-2 country ("DE" -> "GER");
    "" if unknown."""
    code = (code or "").upper()
    return EMA_CODES.get(code) or alpha3(code)
