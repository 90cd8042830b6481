"""ridge in Python: the roofline toolkit's commands as functions.

Every command of the ``ridge`` command line is a function here, every option a keyword
argument (dashes become underscores), and every result's ``to_dict()`` is that command's
``--format json`` output, because it is that output: the C++ library runs the same command
line in this process (``_ridge.run``). Nothing is computed in Python.

    >>> import ridge
    >>> r = ridge.op("gemm", m=4096, n=4096, k=4096, dtype="fp16", device="h100-sxm")
    >>> r.bound, round(r.intensity)
    ('compute', 1365)

Bad input raises ``ridge.InputError`` (a ``ValueError``) with the command line's one-line
message.
"""

import json
import os
import tempfile

from . import _ridge

__version__ = _ridge.version
__all__ = ["InputError", "Result", "Results", "Chart", "Device", "load_device", "run"]


class InputError(ValueError):
    """Bad input: the command line's one-line message (file, field, value)."""


def _cell_html(value):
    text = value if isinstance(value, str) else json.dumps(value)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _table_html(rows):
    columns = list(rows[0].keys())
    head = "".join(f"<th>{_cell_html(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell_html(row.get(c, ''))}</td>" for c in columns) + "</tr>"
        for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _is_table(value):
    return isinstance(value, list) and value and all(isinstance(v, dict) for v in value)


class Result:
    """One command's answer. Its figures read as attributes (``r.time_s``) or items
    (``r["time_s"]``); ``to_dict()`` is the command's JSON."""

    def __init__(self, command, data):
        self._command = command
        self._data = data

    @property
    def command(self):
        """The ridge command line that gave this result."""
        return "ridge " + " ".join(self._command)

    def to_dict(self):
        return json.loads(json.dumps(self._data))

    def __getitem__(self, key):
        return self._data[key]

    def __contains__(self, key):
        return key in self._data

    def keys(self):
        return self._data.keys()

    def __getattr__(self, name):
        data = self.__dict__.get("_data", {})
        if name in data:
            return data[name]
        raise AttributeError(f"{type(self).__name__} has no figure '{name}' "
                             f"(figures: {', '.join(data)})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._data))

    def __repr__(self):
        scalars = [f"{k}={v!r}" for k, v in self._data.items()
                   if k != "schema" and isinstance(v, (int, float, str, bool)) and len(str(v)) < 40]
        return f"<ridge {self._data.get('schema', '?')}: {', '.join(scalars[:6])}>"

    def _repr_html_(self):
        scalars = {k: v for k, v in self._data.items()
                   if not isinstance(v, (dict, list)) and k != "schema"}
        parts = [f"<p><code>{_cell_html(self.command)}</code></p>"]
        if scalars:
            parts.append(_table_html([{"figure": k, "value": v} for k, v in scalars.items()]))
        parts += [f"<h4>{_cell_html(k)}</h4>" + _table_html(v)
                  for k, v in self._data.items() if _is_table(v)]
        return "".join(parts)

    def to_pandas(self):
        """The main table as a DataFrame (one row of figures where there is none); needs pandas."""
        import pandas  # optional: only this method needs it
        tables = [v for v in self._data.values() if _is_table(v)]
        if tables:
            return pandas.DataFrame(tables[0])
        return pandas.DataFrame([{k: v for k, v in self._data.items()
                                  if not isinstance(v, (dict, list))}])


class Results(list):
    """A sweep: one Result per row, and the whole answer's ``to_dict()``."""

    def __init__(self, command, data, key):
        super().__init__(Result(command, row) for row in data[key])
        self._whole = Result(command, data)
        self._key = key

    def to_dict(self):
        return self._whole.to_dict()

    def to_pandas(self):
        import pandas
        return pandas.DataFrame(self._whole[self._key])

    def _repr_html_(self):
        return self._whole._repr_html_()


class Chart:
    """An SVG chart: shown inline in Jupyter, ``save(path)`` to keep it."""

    def __init__(self, command, svg):
        self._command = command
        self.svg = svg

    def to_dict(self):
        # A chart's output is the SVG in every format.
        return {"svg": self.svg}

    def _repr_svg_(self):
        return self.svg

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)


class Device(Result):
    """A device from a device file or a measurement (``load_device``); pass it as ``device=``."""

    def __init__(self, command, data, path, device_id):
        super().__init__(command, data)
        self.path = path
        self.id = device_id


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e18:
        return str(int(value))
    if isinstance(value, Device):
        return value.id
    return str(value)


def run(*args):
    """Runs ``ridge ARGS...`` as given; returns (exit code, stdout, stderr)."""
    code, out, err = _ridge.run([str(a) for a in args])
    return code, out.decode("utf-8"), err


def _call(argv):
    code, out, err = _ridge.run(["--format", "json"] + argv)
    if code == 2:
        raise InputError(err.strip().removeprefix("ridge: error: "))
    if code not in (0, 1):
        raise RuntimeError(err.strip() or f"ridge exited with {code}")
    return out.decode("utf-8")


def _option_argv(name, option, key, value, where):
    """The arguments one keyword becomes: a flag, NAME VALUE, NAME VALUE repeated for a
    repeatable option, or NAME KEY=V1,V2 for a dict (--sweep)."""
    if option["flag"]:
        if value is True:
            return [name]
        if value is False:
            return []
        raise InputError(f"{where}: {key} is a flag: True or False")
    if isinstance(value, dict):
        if len(value) != 1:
            raise InputError(f"{where}: {key} takes one KEY: [values]")
        ((k, vs),) = value.items()
        vs = vs if isinstance(vs, (list, tuple)) else [vs]
        return [name, f"{k}=" + ",".join(_text(v) for v in vs)]
    values = value if isinstance(value, (list, tuple)) else [value]
    if option["repeatable"]:
        return [a for v in values for a in (name, _text(v))]
    return [name, ",".join(_text(v) for v in values)]


class _Command:
    """One command of the tree, callable: positional arguments choose the subcommand and fill
    positionals (or the one required option), keywords become options."""

    def __init__(self, path, spec, globals_):
        self._path = path
        self._spec = spec
        self._globals = {o["name"]: o for o in globals_ if o["name"] != "--format"}
        self.__name__ = path[-1]
        self.__qualname__ = path[-1]
        self.__doc__ = self._doc()

    def _doc(self):
        lines = [self._spec["help"], ""]
        if self._spec["subcommands"]:
            lines.append("First argument, one of: " + ", ".join(self._spec["subcommands"]))
        for o in self._spec["options"] + list(self._globals.values()):
            name = o["name"].lstrip("-").replace("-", "_")
            flag = " (flag)" if o["flag"] else ""
            lines.append(f"  {name}{flag}: {o['help']}")
        return "\n".join(lines)

    def _resolve(self, args):
        spec, path, args = self._spec, list(self._path), list(args)
        while spec["subcommands"]:
            subs = spec["subcommands"]
            if args and isinstance(args[0], str) and args[0] in subs:
                name = args.pop(0)
            elif len(subs) == 1 and spec["needs_subcommand"]:
                name = next(iter(subs))
            elif spec["needs_subcommand"]:
                raise InputError(f"ridge.{' '.join(path)}: name one of {', '.join(subs)}")
            else:
                break
            path.append(name)
            spec = subs[name]
        return spec, path, args

    def argv(self, *args, **kwargs):
        """The command line this call runs (without --format json)."""
        spec, path, args = self._resolve(args)
        where = "ridge." + " ".join(path)
        options = {o["name"]: o for o in spec["options"] if not o["positional"]}
        positionals = [o for o in spec["options"] if o["positional"]]
        if args and not positionals:
            required = [o for o in options.values() if o["required"]]
            if len(args) > 1 or not required:
                raise InputError(f"{where}: takes its options as keywords")
            kwargs = {required[0]["name"][2:].replace("-", "_"): args[0], **kwargs}
            args = []
        repeatable = bool(positionals) and positionals[-1]["repeatable"]
        if len(args) > len(positionals) and not repeatable:
            raise InputError(f"{where}: takes {len(positionals)} positional arguments")
        command = path + [_text(os.fspath(a) if isinstance(a, os.PathLike) else a) for a in args]
        global_argv = []
        for key, value in kwargs.items():
            if value is None:
                continue
            values = value if isinstance(value, (list, tuple)) else [value]
            # A Device from load_device brings its file along.
            global_argv += [a for v in values if isinstance(v, Device)
                            for a in ("--device-file", v.path)]
            name = "--" + key.replace("_", "-")
            if name in options:
                command += _option_argv(name, options[name], key, value, where)
            elif name in self._globals:
                global_argv += _option_argv(name, self._globals[name], key, value, where)
            else:
                known = [o[2:].replace("-", "_") for o in list(options) + list(self._globals)]
                raise InputError(f"{where}: no option {key} (options: {', '.join(known)})")
        return global_argv + command

    def __call__(self, *args, **kwargs):
        argv = self.argv(*args, **kwargs)
        text = _call(argv)
        if text.lstrip().startswith("<"):
            return Chart(argv, text)
        data = json.loads(text)
        # ridge.model_sweep/1, ridge.collective-sweep/2: a table of rows
        if data.get("schema", "").split("/")[0].endswith("sweep"):
            key = next(k for k, v in data.items() if _is_table(v))
            return Results(argv, data, key)
        return Result(argv, data)


class _Report(_Command):
    """report: the HTML page, kept in memory when no ``out`` is given."""

    def __call__(self, *args, **kwargs):
        if kwargs.get("out"):
            return super().__call__(*args, **kwargs)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "report.html")
            super().__call__(*args, out=path, **kwargs)
            with open(path, encoding="utf-8") as f:
                return _Html(f.read())


class _Html:
    """An HTML page: shown inline in Jupyter."""

    def __init__(self, html):
        self.html = html

    def to_dict(self):
        return {"html": self.html}

    def _repr_html_(self):
        escaped = self.html.replace("&", "&amp;").replace('"', "&quot;")
        return f'<iframe srcdoc="{escaped}" style="width:100%;height:640px;border:0"></iframe>'


def load_device(path):
    """A device file (TOML) or a measurement (JSON) as a Device, usable as ``device=``."""
    path = os.fspath(path)
    try:
        device_id = _ridge.device_id(path)
    except ValueError as e:
        raise InputError(str(e)) from None
    argv = ["--device-file", path, "device", "show", device_id]
    return Device(argv, json.loads(_call(argv)), path, device_id)


def _install_commands():
    tree = _ridge.commands()
    names = []
    for name, spec in tree["subcommands"].items():
        command = (_Report if name == "report" else _Command)([name], spec, tree["options"])
        globals()[name] = command
        names.append(name)
    return names


__all__ += _install_commands()
