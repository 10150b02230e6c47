from portal.roles import ROLE_ABILITIES


def member(request):
    user = getattr(request, "user", None)
    found = getattr(user, "member", None) if user is not None and user.is_authenticated else None
    return {"member": found, "member_abilities": ROLE_ABILITIES.get(found.role, ()) if found else ()}
