"""DumpGraph: the DOT file of the first iteration's graph."""

import re

import pytest

import chainer
from chainer import serializers, training
from chainer.training import extensions


def test_writes_the_graph_of_the_observed_loss_once(make_trainer, tmp_path):
    trainer = make_trainer((3, "iteration"))
    graph = extensions.DumpGraph("main/loss")
    trainer.extend(graph)
    flags = []
    trainer.extend(
        lambda t: flags.append(chainer.config.keep_graph_on_report),
        name="spy",
        priority=training.PRIORITY_WRITER,  # runs before DumpGraph
    )
    trainer.run()
    dot = (tmp_path / "result" / "cg.dot").read_text()
    assert dot.startswith("digraph graphname {\n  rankdir=TB;\n") and dot.endswith("}\n")
    labels = re.findall(r'label="([^"]*)"', dot)
    for function in ("MatMul", "_ + _", "_ - _", "_ * _", "Sum"):  # v7's labels
        assert function in labels
    assert "W: (3, 2), float32" in labels and "b: (2), float32" in labels  # v7's label text
    assert 'fillcolor="#6495ED"' in dot and 'shape="octagon"' in dot
    edges = re.findall(r"^  (\d+) -> (\d+);$", dot, flags=re.M)
    node_ids = set(re.findall(r"^  (\d+) \[", dot, flags=re.M))
    assert len(edges) == len(node_ids) - 1  # the loss is a tree over its inputs here
    assert all(a in node_ids and b in node_ids for a, b in edges)
    # Graphs were kept for the first iteration only (the extension restores the flag).
    assert flags == [True, False, False]
    assert not chainer.config.keep_graph_on_report


def test_styles_and_old_out_name(make_trainer, tmp_path):
    trainer = make_trainer((1, "iteration"))
    trainer.extend(
        extensions.DumpGraph(
            "main/loss",
            out_name="graph.dot",
            variable_style={"color": "red"},
            function_style={"shape": "box3d"},
        )
    )
    trainer.run()
    dot = (tmp_path / "result" / "graph.dot").read_text()
    assert 'color="red"' in dot and 'shape="box3d"' in dot and "octagon" not in dot


def test_a_missing_root_is_an_error_and_the_flag_is_restored(make_trainer):
    trainer = make_trainer((1, "iteration"))
    trainer.extend(extensions.DumpGraph("main/accuracy"))
    with pytest.raises(TypeError, match="'main/accuracy' must be a Variable, got NoneType"):
        trainer.run(show_loop_exception_msg=False)
    assert not chainer.config.keep_graph_on_report


def test_a_resumed_dump_graph_does_not_dump_again(make_trainer, tmp_path):
    trainer = make_trainer((1, "iteration"))
    graph = extensions.DumpGraph("main/loss")
    trainer.extend(graph)
    trainer.run()
    serializers.save_npz(tmp_path / "g.npz", graph)
    resumed = extensions.DumpGraph("main/loss")
    serializers.load_npz(tmp_path / "g.npz", resumed)
    assert not resumed.trigger(None)


def _fake_dot(directory, script):
    executable = directory / "dot"
    executable.write_text("#!/bin/sh\n" + script)
    executable.chmod(0o755)
    return directory


def test_renders_a_png_when_graphviz_is_installed(make_trainer, tmp_path, monkeypatch):
    from chainer.training.extensions import computational_graph

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    assert not computational_graph.is_graphviz_available()
    # The fake dot writes its arguments (-Tpng IN -o OUT) into OUT.
    _fake_dot(bin_dir, 'echo "$1 $2" > "$4"\n')
    assert computational_graph.is_graphviz_available()
    trainer = make_trainer((1, "iteration"))
    trainer.extend(extensions.DumpGraph("main/loss", filename="graph.dot"))
    trainer.run()
    out = tmp_path / "result"
    assert (out / "graph.png").read_text() == f"-Tpng {out / 'graph.dot'}\n"


def test_a_failing_dot_is_reported(make_trainer, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(_fake_dot(bin_dir, 'echo "syntax error" >&2; exit 2\n')))
    trainer = make_trainer((1, "iteration"))
    trainer.extend(extensions.DumpGraph("main/loss"))
    with pytest.raises(RuntimeError, match=r"dot could not render .*cg.dot \(exit code 2\): syn"):
        trainer.run()
    assert not (tmp_path / "result" / "cg.png").exists()
