from portal.roles import abilities_for

# The pages under the navigation's Admin (or More) menu: the menu reads active on them.
NAV_MENU_PAGES = ("batches", "setup", "approvals", "members", "member-invite", "member-role", "member-deactivate", "api-users",
                  "api-user-rotate", "api-user-deactivate", "audit", "health")


def member(request):
    user = getattr(request, "user", None)
    found = getattr(user, "member", None) if user is not None and user.is_authenticated else None
    return {"member": found, "member_abilities": abilities_for(found) if found else (), "nav_menu_pages": NAV_MENU_PAGES}
