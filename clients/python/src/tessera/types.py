"""Typed inputs and results, after the published OpenAPI document (docs/openapi.json).

Inputs: each endpoint's named inputs as a TypedDict (``EmailInput``, ``PiiInput``, ...). A POST input given as
such an object may also carry ``metadata``: your own flat object (text, numbers, booleans, None; at most 1,024
bytes as JSON), echoed unchanged in that input's result.

Results: ``LookupResult`` (a GET) and ``BatchResult`` (a POST), plain dicts as the JSON reply has them. With the
default template (1, Full) each identity is a :class:`FullIdentity` (the ``FullIdentity`` schema: score,
matchedOn, explain when asked, then the whole lookup record). **Identities shaped by any other template are
free-form dicts**: ``score`` and ``matchedOn`` and then whatever the template's expression makes (schema
``Identity``), so they are typed ``Dict[str, Any]``.

The field names are the API's own (camelCase), so a result can be passed to ``json.dumps`` as it is.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict, Union

#: A metadata value: text, a number, a boolean or null.
MetadataValue = Union[str, int, float, bool, None]
#: Your own object on a POST input, echoed as its result's ``metadata``: one level deep, at most 1,024 bytes.
Metadata = Dict[str, MetadataValue]


# --- Inputs (named inputs of each endpoint; POST objects may add ``metadata``) -----------------------------------


class _WithMetadata(TypedDict, total=False):
    metadata: Metadata


class _Email(TypedDict):
    email: str


class EmailInput(_Email, _WithMetadata):
    """byEmail: an e-mail address; case and spaces are ignored."""


class _Md5(TypedDict):
    md5: str


class Md5Input(_Md5, _WithMetadata):
    """byMd5: hex MD5 of the trimmed, lowercase address (32 hex digits, either case)."""


class _Sha256(TypedDict):
    sha256: str


class Sha256Input(_Sha256, _WithMetadata):
    """bySha256: hex SHA-256 of the trimmed, lowercase address (64 hex digits, either case)."""


class _Phone(TypedDict):
    phone: str


class PhoneInput(_Phone, _WithMetadata):
    """byPhone: ten US digits in any punctuation, or ``+`` and a country code."""


class _Ip(TypedDict):
    ip: str


class IpInput(_Ip, _WithMetadata):
    """byIp: an IPv4 or IPv6 address (any valid form)."""


class _Device(TypedDict):
    device: str


class DeviceInput(_Device, _WithMetadata):
    """byDevice: an advertising id (IDFA or AAID), hyphenated or 32 bare hex digits."""


class _Vin(TypedDict):
    vin: str


class VehicleInput(_Vin, _WithMetadata):
    """byVehicle: a 17-character VIN with a valid check digit."""


class _Id(TypedDict):
    id: str


class IdInput(_Id, _WithMetadata):
    """byId: a Tessera identity id (an ``int`` is accepted too and sent as text)."""


class _PiiPlace(TypedDict, total=False):
    address: str
    city: str
    state: str
    zip: str


class _PiiName(TypedDict):
    firstName: str
    lastName: str


class PiiInput(_PiiName, _PiiPlace, _WithMetadata):
    """byPii: first and last name (both needed), and a ``zip`` (5 digits or zip+4) or a two-letter ``state``;
    ``address`` and ``city`` help the score."""


class AnyInput(_PiiPlace, _WithMetadata, total=False):
    """byAny: any of the other endpoints' inputs; every key given is searched, and the name and place when they
    are complete. At least one is needed."""

    email: str
    md5: str
    sha256: str
    phone: str
    ip: str
    device: str
    vin: str
    id: str
    firstName: str
    lastName: str


# --- Identities ---------------------------------------------------------------------------------------------------


class Email(TypedDict):
    address: str
    md5: str
    sha256: str
    firstSeen: str
    lastSeen: str


class Phone(TypedDict):
    number: str
    type: str
    carrier: str
    doNotCall: bool
    firstSeen: str
    lastSeen: str


class IpAddress(TypedDict):
    ip: str
    firstSeen: str
    lastSeen: str


class Device(TypedDict):
    deviceId: str
    type: str
    firstSeen: str
    lastSeen: str


class Vehicle(TypedDict):
    vin: str
    year: Optional[int]
    make: str
    model: str
    firstSeen: str
    lastSeen: str


class Property(TypedDict):
    type: str
    value: Optional[int]
    ownerOccupied: bool
    firstSeen: str
    lastSeen: str


class Finances(TypedDict):
    income: str
    netWorth: str
    credit: str


class Company(TypedDict):
    name: str
    domain: str
    title: str
    firstSeen: str
    lastSeen: str


class Behavior(TypedDict):
    category: str
    name: str
    firstSeen: str
    lastSeen: str


class LookupRecord(TypedDict):
    """A person as lookups see them (schema ``LookupRecord``). Record types the caller may not see are empty."""

    id: int
    firstName: str
    middleName: str
    lastName: str
    suffix: str
    gender: str
    birthYear: Optional[int]
    address: str
    city: str
    state: str
    zip: str
    zip4: str
    firstSeen: str
    lastSeen: str
    emails: List[Email]
    phones: List[Phone]
    ips: List[IpAddress]
    devices: List[Device]
    vehicles: List[Vehicle]
    properties: List[Property]
    finances: Optional[Finances]
    companies: List[Company]
    behaviors: List[Behavior]
    data: Dict[str, Any]


class _Scored(TypedDict):
    score: float
    matchedOn: List[str]


class _Explained(TypedDict, total=False):
    explain: Dict[str, Any]


class FullIdentity(LookupRecord, _Scored, _Explained):
    """An identity as the default template, Full (id 1), returns it (schema ``FullIdentity``): ``score`` (0-100),
    ``matchedOn``, ``explain`` with ``explain=True``, then the whole lookup record."""


#: An identity shaped by a template other than Full: ``score``, ``matchedOn`` (and ``explain``), then whatever
#: fields the template makes. Free-form.
TemplateIdentity = Dict[str, Any]

#: One identity of a reply: a :class:`FullIdentity` with the default template, a free-form dict with any other.
Identity = Union[FullIdentity, TemplateIdentity]


# --- Replies ------------------------------------------------------------------------------------------------------


class LookupResult(TypedDict):
    """The reply to a GET lookup (schema ``LookupResult``): identities best score first, empty when none match."""

    requestId: str
    identities: List[Identity]


class _BatchItem(TypedDict):
    input: Union[str, Dict[str, str]]
    identities: List[Identity]


class BatchItem(_BatchItem, total=False):
    """One input's result: ``input`` as sent (the string, or its named inputs without ``metadata``),
    ``identities``, and ``metadata`` only when the input had some."""

    metadata: Metadata


class BatchResult(TypedDict):
    """The reply to a POST lookup (schema ``BatchResult``): one result per input, in the order given."""

    requestId: str
    results: List[BatchItem]


class _FieldError(TypedDict):
    path: str
    message: str


class FieldError(_FieldError, total=False):
    """One wrong field of a ``validation_failed`` error; ``line`` and ``column`` in a template expression."""

    line: int
    column: int


class _ErrorBody(TypedDict):
    error: str
    code: str
    requestId: str


class ErrorBody(_ErrorBody, total=False):
    """Every error reply's body (schema ``Error``); :class:`~tessera.errors.ApiError` carries its parts."""

    fields: List[FieldError]


# --- Usage (GET /v2/usage/...: a key's own calls, an organization administrator's key its organization's) ---------


class UsageCall(TypedDict):
    """One metered call (schema ``UsageCall``): who, how, its status, what it counted and its ``cost`` in USD.
    Every other count of the schema (``identitiesWithEmails``, ``milliseconds``, ...) is there too."""

    id: int
    at: str
    userId: int
    organizationId: Optional[int]
    keyId: Optional[str]
    method: str
    path: str
    status: int
    inputs: int
    identities: int
    cost: float


class UsagePoint(TypedDict):
    #: The bucket's start (UTC, ISO 8601).
    at: str
    value: float


class _UsageRange(TypedDict):
    #: The settled range (UTC, ISO 8601; ``to`` excluded) and the time zone buckets start in.
    to: str
    tz: str


UsageRange = TypedDict("UsageRange", {"from": str}, total=True)


class UsageSeries(_UsageRange, UsageRange):
    """A metric over the range, bucket by bucket (schema ``UsageSeries``, its ``usageSeries``)."""

    metric: str
    interval: str
    points: List[UsagePoint]


class UsageTotals(_UsageRange, UsageRange):
    """Every metric summed over the range (schema ``UsageTotals``): ``totals["requests"]``, ``totals["cost"]`` ..."""

    totals: Dict[str, float]


class UsageCalls(_UsageRange, UsageRange):
    """A page of calls (schema ``UsageCalls``); pass ``next`` as ``after`` for the next one (None: the last)."""

    calls: List[UsageCall]
    next: Optional[str]
