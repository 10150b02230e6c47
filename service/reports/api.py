from ninja import Router

router = Router(tags=["Partner reports and files"])
