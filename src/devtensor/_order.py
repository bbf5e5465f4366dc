"""NumPy's order argument ('C', 'F', 'A' or 'K'), read the one way NumPy
reads it: either case ('f' is 'F'), None as the function's default."""


def order_letter(order, default=None):
    """order as its upper-case letter; None gives default (a ValueError where
    the function has none), anything else NumPy's ValueError."""
    if order is None and default is not None:
        return default
    if isinstance(order, str) and len(order) == 1 and order in "CFAKcfak":
        return order.upper()
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
