"""The reference rows an Enhetsregisteret block points at: codes -> uuids, for whole columns.

NACE codes, organisation forms and municipalities are read once (a few thousand rows);
a code missing from them leaves the field empty and warns, and is never created.
Postal codes (`NO-<postnummer>`, tied to the municipality of the address that brought
them) and countries are created the first time an accepted row uses them: per row, per
address, a Norwegian postal code's country NO, the postal code, then the address's own
country. They get their uuid when first seen and are created by the writer before the
rows pointing at them are stored (pending_create), through the ORM with
ignore_conflicts and read back: one created meanwhile by another import keeps its own
uuid, and the writer points the rows at it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from service.companies.importers.enheter.rules import ADDRESSES
from service.companies.models import GeoCountry, GeoMunicipality, GeoPostalCode, NaceCode, OrganizationType

# The register's own "not given" NACE code: no code, and nothing to warn about.
NACE_UNSPECIFIED = "00.000"
_STRING = pa.string()
# A uuid as its 16 bytes: what PostgreSQL's binary COPY takes for a uuid column.
UUID_BYTES = pa.binary(16)


@dataclass
class EnhetReferences:
    nace: dict[str, uuid.UUID]  # code (62.010) -> uuid
    organization_types: dict[str, uuid.UUID]  # code (AS) -> uuid
    municipalities: dict[str, uuid.UUID]  # code (0301) -> uuid
    countries: dict[str, uuid.UUID]  # ISO code -> uuid
    postal_codes: dict[str, uuid.UUID]  # key (NO-0151) -> uuid
    _columns: dict[str, tuple[int, pa.Array, pa.Array]] = field(default_factory=dict)
    _pending: dict[tuple[str, str], object] = field(default_factory=dict)  # (kind, key) -> what to create

    @classmethod
    def load(cls) -> EnhetReferences:
        def norwegian(model) -> dict[str, uuid.UUID]:
            return {key[3:]: pk for key, pk in model.objects.filter(key__startswith="NO-").values_list("key", "uuid")}

        return cls(
            nace=norwegian(NaceCode),
            organization_types=norwegian(OrganizationType),
            municipalities=norwegian(GeoMunicipality),
            countries=dict(GeoCountry.objects.values_list("key", "uuid")),
            postal_codes=dict(GeoPostalCode.objects.filter(key__startswith="NO-").values_list("key", "uuid")),
        )

    def block_resolve(self, rows: pa.Table) -> tuple[pa.Table, list[tuple[int, str]]]:
        """The block's rows with their reference ids (UUID_BYTES, null for none) in place of the codes, and
        its warnings (ordinal, message) in row order. New postal codes and countries get their uuids now;
        the writer creates them (pending_create) before the rows pointing at them need them."""
        ordinals = rows.column("ordinal").to_numpy()
        warned: list[tuple[int, int, str]] = []  # (ordinal, place in the row, message)

        def warn(position: int, codes: pa.ChunkedArray, where: pa.Array, message: str) -> None:
            for index in np.flatnonzero(where.to_numpy(zero_copy_only=False)).tolist():
                warned.append((int(ordinals[index]), position, message.format(codes[index].as_py())))

        ids: dict[str, pa.Array] = {}
        code = rows.column("organisasjonsform.kode")
        ids["organization_type_id"] = self._ids("organization_types", code)
        warn(0, code, pc.and_(pc.not_equal(code, ""), pc.is_null(ids["organization_type_id"])), "unknown organisation form {}; left empty")
        for rank in (1, 2, 3):
            code = rows.column(f"naeringskode{rank}.kode")
            given = pc.invert(pc.is_in(code, value_set=pa.array(["", NACE_UNSPECIFIED])))
            ids[f"nace_code_{rank}_id"] = self._ids("nace", pc.if_else(given, code, pa.scalar(None, _STRING)))
            warn(rank, code, pc.and_(given, pc.is_null(ids[f"nace_code_{rank}_id"])), "unknown NACE code {}; left empty")
        postal_keys = {}
        for position, (prefix, block) in zip((4, 6), ADDRESSES.items()):
            code = rows.column(f"{block}.kommunenummer")
            ids[f"{prefix}_municipality_id"] = self._ids("municipalities", code)
            warn(position, code, pc.and_(pc.not_equal(code, ""), pc.is_null(ids[f"{prefix}_municipality_id"])), "unknown municipality {}; left empty")
            postal = rows.column(f"{block}.postnummer")
            norwegian = pc.is_in(rows.column(f"{block}.landkode"), value_set=pa.array(["NO", ""]))
            valid = pc.and_(norwegian, pc.match_substring_regex(postal, r"^[0-9]{4}$"))
            bad = pc.and_(pc.and_(norwegian, pc.invert(valid)), pc.not_equal(postal, ""))
            warn(position + 1, postal, bad, f"{block}.postnummer {{!r}} is not a Norwegian postal code; left empty")
            postal_keys[prefix] = pc.if_else(valid, pc.binary_join_element_wise("NO-", postal, ""), pa.scalar(None, _STRING))
        self._schedule_new(rows, postal_keys, ids)
        for prefix, block in ADDRESSES.items():
            ids[f"{prefix}_postal_code_id"] = self._ids("postal_codes", postal_keys[prefix])
            country = rows.column(f"{block}.landkode")
            ids[f"{prefix}_country_id"] = self._ids("countries", pc.if_else(pc.not_equal(country, ""), country, pa.scalar(None, _STRING)))
        codes = [name for name in rows.column_names if "." in name]
        resolved = rows.drop_columns(codes)
        for name, column in ids.items():
            resolved = resolved.append_column(name, column)
        return resolved, [(ordinal, message) for ordinal, _, message in sorted(warned)]

    def _ids(self, name: str, codes) -> pa.ChunkedArray:
        """Each code's uuid (UUID_BYTES), null where unknown or null."""
        mapping = getattr(self, name)
        known = self._columns.get(name)
        if known is None or known[0] != len(mapping):  # (the dicts only grow)
            known = (len(mapping), pa.array(list(mapping), _STRING), pa.array([v.bytes for v in mapping.values()], UUID_BYTES))
            self._columns[name] = known
        _, keys, uuids = known
        return pc.take(uuids, pc.index_in(codes, value_set=keys))

    def _schedule_new(self, rows: pa.Table, postal_keys: dict[str, pa.Array], ids: dict[str, pa.Array]) -> None:
        new = np.zeros(rows.num_rows, dtype=bool)
        for prefix, block in ADDRESSES.items():
            keys = postal_keys[prefix]
            new |= pc.and_(pc.is_valid(keys), pc.is_null(self._ids("postal_codes", keys))).to_numpy(zero_copy_only=False)
            country = rows.column(f"{block}.landkode")
            unknown_country = pc.is_null(self._ids("countries", country))
            new |= pc.and_(pc.not_equal(country, ""), unknown_country).to_numpy(zero_copy_only=False)
        if not new.any():
            return
        chosen = pa.array(np.flatnonzero(new))
        taken = {prefix: (
            pc.take(postal_keys[prefix], chosen).to_pylist(),
            pc.take(rows.column(f"{block}.postnummer"), chosen).to_pylist(),
            pc.take(rows.column(f"{block}.poststed"), chosen).to_pylist(),
            [None if value is None else uuid.UUID(bytes=value) for value in pc.take(ids[f"{prefix}_municipality_id"], chosen).to_pylist()],
            pc.take(rows.column(f"{block}.landkode"), chosen).to_pylist(),
            pc.take(rows.column(f"{block}.land"), chosen).to_pylist(),
        ) for prefix, block in ADDRESSES.items()}  # fmt: skip
        countries: dict[str, str] = {}  # code -> name, in order of first use
        postal_codes: dict[str, tuple[str, str, uuid.UUID | None]] = {}  # key -> (code, place, municipality)
        for i in range(len(chosen)):
            for prefix in ADDRESSES:
                keys, codes, places, municipalities, country_codes, country_names = taken[prefix]
                if keys[i] is not None:
                    countries.setdefault("NO", "Norway")
                    postal_codes.setdefault(keys[i], (codes[i], places[i].strip()[:100], municipalities[i]))
                if country_codes[i]:
                    countries.setdefault(country_codes[i], country_names[i].strip()[:100] or country_codes[i])
        for code, name in countries.items():
            if code not in self.countries:
                self.countries[code] = uuid.uuid4()
                self._pending[("country", code)] = name
        for key, (code, place, municipality) in postal_codes.items():
            if key not in self.postal_codes:
                self.postal_codes[key] = uuid.uuid4()
                self._pending[("postal_code", key)] = (code, place, municipality)

    def pending_create(self) -> dict[uuid.UUID, uuid.UUID]:
        """Create the postal codes and countries rows have pointed at since the last call, with the uuids
        the rows carry. One that another import created meanwhile keeps its own uuid: the answer maps
        the uuids the rows carry to those (usually empty)."""
        if not self._pending:
            return {}
        countries = {code: name for (kind, code), name in self._pending.items() if kind == "country"}
        postal_codes = {key: new for (kind, key), new in self._pending.items() if kind == "postal_code"}
        self._pending = {}
        self._columns.clear()  # (a uuid may change below)
        chosen = {**{("country", c): self.countries[c] for c in countries}, **{("postal_code", k): self.postal_codes[k] for k in postal_codes}}
        if countries:
            GeoCountry.objects.bulk_create(
                [GeoCountry(uuid=self.countries[code], key=code, name=name) for code, name in countries.items()],
                ignore_conflicts=True,
            )
            self.countries.update(GeoCountry.objects.filter(key__in=countries).values_list("key", "uuid"))
        if postal_codes:
            GeoPostalCode.objects.bulk_create(
                [
                    GeoPostalCode(
                        uuid=self.postal_codes[key], key=key, code=code, place_name=place, municipality_id=municipality,
                        country_id=self.countries["NO"],
                    )
                    for key, (code, place, municipality) in postal_codes.items()
                ],
                ignore_conflicts=True,
            )
            self.postal_codes.update(GeoPostalCode.objects.filter(key__in=postal_codes).values_list("key", "uuid"))
        actual = {("country", c): self.countries[c] for c in countries} | {("postal_code", k): self.postal_codes[k] for k in postal_codes}
        return {chosen[name]: actual[name] for name in chosen if chosen[name] != actual[name]}
