from django import template

from reports.catalogue import label_of, orderable_kinds

register = template.Library()


@register.simple_tag
def report_kinds_for(member):
    """The report types this member may order (a credit report only with credit_check)."""
    return orderable_kinds(member) if member is not None else []


@register.filter
def report_label(key: str) -> str:
    return label_of(key)
