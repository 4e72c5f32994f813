"""Compare: many Measurements as tables, one per label: a row per (threads, env,
sub_label or stmt), a column per description, medians in one unit per table, optionally
trimmed to their significant figures, coloured against the best of their column or row,
and marked where their spread is high.  The layout is PyTorch's, character for character."""
import collections
import enum
import itertools

from . import common

__all__ = ["Colorize", "Compare"]

BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(value):
    import mindtorch
    return int(mindtorch.tensor(value).log10().ceil())


class _Column:
    """One description's cells: a fixed width number format over all its results."""

    def __init__(self, groups, time_scale, trim, highlight):
        self.groups = groups  # per thread group, the column's results (None: missing)
        results = [r for r in itertools.chain.from_iterable(groups) if r is not None]
        self.trim = trim
        self.highlight = highlight and any(r.has_warnings for r in results)
        digits = [_leading_digits(r.median / time_scale) for r in results]
        decimals = min(max(r.significant_figures - d, 0) for r, d in zip(results, digits)) \
            if trim else 1
        width = max(digits) + decimals + (1 if decimals else 0)
        self._format = f"{{:>{width}.{decimals}f}}{{:>{7 if self.highlight else 0}}}"

    def cell(self, value, sigfigs, spread):
        if value is None:
            return " " * len(self.cell(1, sigfigs, None))
        if self.trim:
            value = common.trim_sigfig(value, sigfigs)
        mark = f" (! {spread * 100:.0f}%)" if self.highlight and spread is not None else ""
        return self._format.format(value, mark)


def _colored(text, value, best):
    if value <= best * 1.01 or value <= best + 100e-9:
        return BEST + BOLD + text + TERMINATE * 2
    if value <= best * 1.1:
        return GOOD + BOLD + text + TERMINATE * 2
    if value >= best * 5:
        return VERY_BAD + BOLD + text + TERMINATE * 2
    if value >= best * 2:
        return BAD + text + TERMINATE * 2
    return text


class _Row:
    def __init__(self, results, group, env, threads):
        self.results, self.group = results, group
        self.env = env          # shown before the name (several envs in the table), or None
        self.threads = threads  # starts a thread group: its separator line, or None

    def strings(self, columns, time_scale, env_width):
        first = next(r for r in self.results if r is not None)
        env = (f"({first.env})" if self.env is not None else "").ljust(env_width + 4)
        cells = ["  " + env + first.as_row_name]
        for m, column in zip(self.results, columns):
            cells.append(column.cell(None, 1, None) if m is None else column.cell(
                m.median / time_scale, m.significant_figures,
                m.iqr / m.median if m.has_warnings else None))
        return cells

    def finalize(self, cells, widths, columns, colorize):
        present = [r.median for r in self.results if r is not None]
        if colorize == Colorize.ROWWISE:
            bests = [min(present)] * len(self.results)
        elif colorize == Colorize.COLUMNWISE:
            bests = [min((r.median for r in c.groups[self.group] if r is not None), default=None)
                     for c in columns]
        else:
            bests = [None] * len(self.results)
        out = [cells[0].ljust(widths[0])]
        for text, width, m, best in zip(cells[1:], widths[1:], self.results, bests):
            text = text.center(width)
            if colorize != Colorize.NONE and m is not None and best is not None:
                text = _colored(text, m.median, best)
            out.append(text)
        return out


class _Table:
    def __init__(self, results, colorize, trim, highlight):
        if len({r.label for r in results}) != 1:
            raise AssertionError("All results must share the same label")
        self.results, self.colorize, self.highlight = results, colorize, highlight
        self.label = results[0].label
        self.unit, self.scale = common.select_unit(min(r.median for r in results))
        row_keys = common.ordered_unique((r.num_threads, r.env, r.as_row_name) for r in results)
        row_keys.sort(key=lambda k: k[:2])  # by threads and env; stmts keep their order
        self.column_keys = common.ordered_unique(r.description for r in results)
        cells = {(k, c): None for k in row_keys for c in self.column_keys}
        for r in results:
            cells[(r.num_threads, r.env, r.as_row_name), r.description] = r
        envs = {r.env for r in results}
        several_envs = len(envs) > 1
        self.env_width = max(len(e) for e in envs) if several_envs else 0
        self.rows, groups = [], []
        prior_threads, prior_env = -1, ""
        for key in row_keys:
            threads, env, _ = key
            if threads != prior_threads:
                prior_threads, prior_env = threads, ""
                groups.append([])
            row = [cells[key, c] for c in self.column_keys]
            starts = not groups[-1]
            self.rows.append(_Row(row, len(groups) - 1,
                                  env if several_envs and env != prior_env else None,
                                  threads if starts else None))
            groups[-1].append(row)
            prior_env = env
        self.columns = [_Column([tuple(row[i] for row in g) for g in groups], self.scale, trim,
                                highlight) for i in range(len(self.column_keys))]

    def render(self):
        table = [[""] + self.column_keys]
        table += [row.strings(self.columns, self.scale, self.env_width) for row in self.rows]
        n = max(len(r) for r in table)
        for r in table:
            r += [""] * (n - len(r))
        widths = [max(len(c) for c in col) for col in zip(*table)]
        header = "  |  ".join(c.center(w) for c, w in zip(table[0], widths))
        lines = [header]
        for cells, row in zip(table[1:], self.rows):
            if row.threads is not None:
                lines.append(f"{row.threads} threads: ".ljust(len(header), "-"))
            lines.append("  |  ".join(row.finalize(cells, widths, self.columns, self.colorize)))
        title = (" " + (self.label or "") + " ").center(len(header) - 2, "-")
        note = ("(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n"
                if self.highlight and any(r.has_warnings for r in self.results) else "")
        return (f"[{title}]\n" + "\n".join(lines) + "\n\nTimes are in "
                f"{common.unit_to_english(self.unit)}s ({self.unit}).\n" + note)


class Compare:
    """Tables of Measurements, one per label (see the module docstring); print() or str()."""

    def __init__(self, results):
        self._results = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self):
        return "\n".join(self._render())

    def extend_results(self, results):
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self):
        self._trim_significant_figures = True

    def colorize(self, rowwise=False):
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self):
        self._highlight_warnings = True

    def print(self):
        print(str(self))

    def _render(self):
        by_label = collections.defaultdict(list)
        for r in common.Measurement.merge(self._results):
            by_label[r.label].append(r)
        return [_Table(group, self._colorize, self._trim_significant_figures,
                       self._highlight_warnings).render() for group in by_label.values()]
