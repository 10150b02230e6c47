def member(request):
    user = getattr(request, "user", None)
    return {"member": getattr(user, "member", None) if user is not None and user.is_authenticated else None}
