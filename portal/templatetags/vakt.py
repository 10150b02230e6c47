from django import template

register = template.Library()


@register.filter
def key_label(value) -> str:
    """A machine key as words: "very_low" -> "Very low"."""
    text = str(value or "").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def plain(value) -> str:
    """A value the service recorded, for reading: lists joined, yes/no, a dash for nothing."""
    if value is None or value == "" or value == []:
        return "–"
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    if isinstance(value, (int, float)) and abs(value) >= 10_000:  # amounts grouped; years (2025) left alone
        return f"{value:,.0f}"
    return str(value)
