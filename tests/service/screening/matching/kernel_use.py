"""The kernels' signatures in the engine's own use, for `test_compiled_once`: run in a process
of its own, where nothing but the engine calls the kernels,

    .venv/bin/python -m tests.service.screening.matching.kernel_use

it prints, as JSON, each kernel's signatures after `warm_up` ("after_warm_up"), after indexes
built and searched with varied names and names compared alone ("after_use"), and after each
kernel's body was typed again ("all").

A kernel loaded from numba's cache does not load the kernels it calls (their code is in its
own), so after a warm start the kernels a search calls only from other kernels show no
signature. Typing each calling kernel's body again, without making code (`_TypesOnly`), makes
each call in it ask the kernel called for the specialisation it needs, loaded from the cache
(or compiled) as the first compile made it: the constants that numba types as literals, whose
copies are compiled and never run, included. That typing takes about 25 s, so its result is kept
beside numba's cache (`TYPED`) for the code it was made from: the matching package, this file,
numba's, numpy's and Python's versions. The engine's types follow from these alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import sys
from pathlib import Path

import numba
import numpy as np
from numba import njit
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import PassManager
from numba.core.errors import CompilerError
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import NopythonTypeInference

from service.screening.matching import (
    ListEntity,
    ListName,
    MatchIndex,
    PersonQuery,
    normalize_name,
    score_names,
    score_pair,
    warm_up,
)
from service.screening.matching.kernels import (
    alignment,
    candidates,
    estimate,
    hashes,
    lookup,
    packing,
    scoring,
    shortlist,
    similarity,
    spelling,
)
from service.screening.matching.score import compare_names

MODULES = (alignment, candidates, estimate, hashes, lookup, packing, scoring, shortlist, similarity, spelling)
MATCHING = Path(alignment.__file__).resolve().parents[1]
TYPED = MATCHING / "kernels" / "__pycache__" / "kernel_use.json"  # the last typing's signatures, and of which code

PERSONS = [
    ["Vladimir Vladimirovich Putin", "V. V. Putin", "Владимир Путин", "VladimirPutin"],
    ["Sergey Sergey Shoigu", "Sergei Kuzhugetovich Shoigu"],
    ["Patr Ushev Nikolai", "Nikolai Platonovich Patrushev", "Николай Платонович Патрушев"],
    ["Mohammed bin Salman Al Saud", "محمد بن سلمان آل سعود"],
    ["Abu Bakr al-Baghdadi", "Dr. Ayman al-Zawahiri", "Ab Del Karim"],
    ["习近平", "Xi Jin Ping", "习 近平"],
    ["Kim Hong-sop", "김홍섭", "Kim Hon-gsop"],
    ["Hans Joachim Friedrich", "J. Garcia", "Juan Jose Garcia Lopez"],
    ["Maximilianus Alexandrovich Konstantinopolsky-Wiedemann Oberhauser" + " Abcdefghijklmnopqrstuvwxyz" * 3],
    ["Ole Ole Hansen", "Olegunnar Solskjar"],
]
ORGANISATIONS = ["Rosneft Oil Company", "Siemens AG", "Bank Melli Iran", "Nicolas Maduro Moros SA", "Gazprom 2000"]
QUERIES = [
    "Vladimir Putin", "V. Putin", "Vladimir Putn", "Putin Vladimir", "Vladimir Put in", "Vladimirputin", "Путин",
    "Sergey Shoigu", "Nikolai Patrushev", "Ni Kolaipat Rushev", "Nik Olaiplatonovichpatrushew",
    "Mohammed bin Salman", "Mohammed Salman", "محمد سلمان", "Abdel Karim", "Ayman Zawahiri", "Xi Jinping",
    "习近平", "Xijinpin", "Kim Hong-sop", "김홍섭", "Hans Joachim Otto Friedrich", "J. Garcia", "Juan Garcia",
    "Maximilianus Konstantinopolsky", "Ole Hansen", "Hansen", "Nobody Unlisted", "X", "",
]


def dispatchers():
    for module in MODULES:
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                yield module.__name__.rsplit(".", 1)[-1] + "." + name, value


def signatures() -> dict[str, list[str]]:
    return {name: [str(signature) for signature in kernel.signatures] for name, kernel in dispatchers()}


def use_the_engine() -> None:
    """Indexes built and searched (persons in several scripts, initials, glued and split parts,
    fathers' names, long parts, organisations, facts, thresholds, a pickled copy), and names
    compared alone."""
    entities = [
        ListEntity(f"p{n}", "Person", [ListName(name, "weak" if k == 2 else "strong") for k, name in enumerate(names)],
                   birth_dates=["1952-10-07"] if n % 2 else [], nationalities=["ru"] if n % 3 else [],
                   gender="male" if n % 4 else None)
        for n, names in enumerate(PERSONS)
    ] + [ListEntity(f"o{n}", "Organization", [ListName(name)], nationalities=["ir"])
         for n, name in enumerate(ORGANISATIONS)]
    for size in (len(entities), 3):
        index = MatchIndex.build(entities[:size])
        for query in QUERIES:
            index.search(PersonQuery(query, birth_date="1952", nationalities=["ru"], gender="male"))
            index.search(PersonQuery(query), threshold=0.3, limit=3)
        for name in ORGANISATIONS + ["Rosneft", "Siemens", "Bank Meli"]:
            index.search(PersonQuery(name, schema="Organization"))
        index.score_listed_name(PersonQuery("Vladimir Putin"), 0)
        pickle.loads(pickle.dumps(index)).search(PersonQuery("Vladimir Putn"))
    for query in QUERIES[:12]:
        for listed in PERSONS[0] + PERSONS[2] + PERSONS[6]:
            score_names(query, listed)
            compare_names(normalize_name(query), normalize_name(listed))
    score_names("Siemens", "Siemens AG", "Organization")
    score_pair(PersonQuery("Vladimir Putin", birth_date="1952-10-07"), entities[0])


class _TypesOnly(CompilerBase):
    """numba's pipeline up to the type inference: the body is typed, no code is made."""

    def define_pipelines(self):
        self.state.cr = None  # no compile result: numba ends with "All available pipelines exhausted"
        pm = PassManager("types only")
        pm.passes.extend(DefaultPassBuilder.define_untyped_pipeline(self.state).passes)
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.finalize()
        return [pm]


def _calls_a_kernel(kernel) -> bool:
    """Whether its body names another kernel (an inlined one included). Only such bodies ask for
    specialisations, so only they are typed again: typing a body compiles the numpy functions it
    calls, and typing the others too (sorts, `np.unique`) took a third longer."""
    names, found = kernel.py_func.__code__.co_names, kernel.py_func.__globals__
    return any(isinstance(found.get(name), CPUDispatcher) for name in names)


def type_the_callers_again() -> None:
    typed = set()
    while True:
        todo = [(kernel, signature) for _, kernel in dispatchers() if _calls_a_kernel(kernel)
                for signature in kernel.signatures if (kernel, signature) not in typed]
        if not todo:
            return
        for kernel, signature in todo:
            typed.add((kernel, signature))
            try:
                njit(pipeline_class=_TypesOnly)(kernel.py_func).compile(signature)
            except CompilerError as error:  # the pipeline ends without code, as it should
                if "pipelines exhausted" not in str(error):
                    raise


def _code_digest() -> str:
    """What the kernels' signatures follow from: the matching package's code (the kernels, and the
    Python that calls them), the engine's use here, and the versions that type it."""
    digest = hashlib.sha256(f"{numba.__version__} {np.__version__} {sys.version}".encode())
    for path in sorted(MATCHING.rglob("*.py")):
        digest.update(str(path.relative_to(MATCHING)).encode() + b"\0" + path.read_bytes())
    digest.update(b"kernel_use.py\0" + Path(__file__).read_bytes())
    return digest.hexdigest()


def typed_signatures() -> dict[str, list[str]]:
    """`signatures` after `type_the_callers_again`, or as the last typing of the same code found them."""
    code = _code_digest()
    try:
        kept = json.loads(TYPED.read_text())
    except (OSError, ValueError):
        kept = {}
    if kept.get("code") != code:
        type_the_callers_again()
        kept = {"code": code, "all": signatures()}
        TYPED.parent.mkdir(exist_ok=True)
        written = TYPED.with_suffix(f".{os.getpid()}")
        written.write_text(json.dumps(kept))
        written.replace(TYPED)
    now = signatures()  # the kept ones and any this process met besides (none, for the same code)
    return {name: sorted(set(kept["all"].get(name, [])) | set(found)) for name, found in now.items()}


def main() -> None:
    warm_up()
    after_warm_up = signatures()
    use_the_engine()
    after_use = signatures()
    print(json.dumps({"after_warm_up": after_warm_up, "after_use": after_use, "all": typed_signatures()}))


if __name__ == "__main__":
    main()
