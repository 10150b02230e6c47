"""Words of the case pages: list categories by the names officers use."""

from django import template

from portal import formatting as fmt

register = template.Library()

LIST_NAMES = {
    "un_security_council": "UN Security Council",
    "us_ofac_sdn": "OFAC SDN",
    "eu_financial_sanctions": "EU financial sanctions",
    "pep": "PEP list",
}


@register.filter
def list_name(category_key: str) -> str:
    """A screening list category's short name: "un_security_council" -> "UN Security Council"."""
    return LIST_NAMES.get(category_key) or fmt.key_words(category_key)
