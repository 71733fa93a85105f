"""Model links: complete models such as the ``Classifier`` wrapper."""
