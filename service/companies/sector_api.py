from ninja import Router

router = Router(tags=["Sector benchmarking"])
