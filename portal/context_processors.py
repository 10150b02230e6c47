from portal.roles import abilities_for


def member(request):
    user = getattr(request, "user", None)
    found = getattr(user, "member", None) if user is not None and user.is_authenticated else None
    return {"member": found, "member_abilities": abilities_for(found) if found else ()}
