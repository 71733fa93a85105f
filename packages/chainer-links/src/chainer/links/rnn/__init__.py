"""Recurrent links: stateful and stateless cells, stacked ``NStep`` networks, TreeLSTMs."""
