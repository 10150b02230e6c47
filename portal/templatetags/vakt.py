from django import template

register = template.Library()


@register.filter
def key_label(value) -> str:
    """A machine key as words: "very_low" -> "Very low"."""
    text = str(value or "").replace("_", " ").strip()
    return text[:1].upper() + text[1:]
