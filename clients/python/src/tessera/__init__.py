"""Python client for the Tessera identity lookup API (standard library only, Python 3.9+).

    >>> from tessera import Tessera
    >>> client = Tessera("https://api.tessera.example", "k7Qm...")   # the whole key: id + secret
    >>> client.by_email.get("a@b.example")["identities"]

See README.md for every feature.
"""

from ._version import __version__
from .auth import KEY_ID_LENGTH, KEY_SECRET_LENGTH, KeyForm, authorization, split_key
from .client import ENDPOINTS, RETRY_STATUSES, Endpoint, ResponseInfo, Tessera, parse_retry_after
from .csvstream import CsvStream, unguard
from .errors import (
    ApiError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    GoneError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    TesseraConnectionError,
    TesseraError,
    TesseraTimeoutError,
    UnavailableError,
    UnprocessableError,
)
from .jobs import ENDED_JOB_STATUSES, Job, JobPage, JobResult, JobResultItem, JobRows, Jobs
from .subscriptions import DeletedSubscription, Subscription, SubscriptionPage, Subscriptions
from .types import (
    AnyInput,
    BatchItem,
    BatchResult,
    DeviceInput,
    EmailInput,
    ErrorBody,
    FullIdentity,
    IdInput,
    Identity,
    IpInput,
    LookupRecord,
    LookupResult,
    UsageCall,
    UsageCalls,
    UsagePoint,
    UsageSeries,
    UsageTotals,
    Md5Input,
    Metadata,
    PhoneInput,
    PiiInput,
    Sha256Input,
    TemplateIdentity,
    VehicleInput,
)

from .webhooks import WebhookVerificationError, verify_webhook, webhook_signature

#: The same class under a generic name.
Client = Tessera

__all__ = [
    "__version__",
    "Tessera",
    "Client",
    "Endpoint",
    "ResponseInfo",
    "CsvStream",
    "ENDPOINTS",
    "RETRY_STATUSES",
    "KEY_ID_LENGTH",
    "KEY_SECRET_LENGTH",
    "KeyForm",
    "authorization",
    "split_key",
    "parse_retry_after",
    "unguard",
    "TesseraError",
    "ApiError",
    "BadRequestError",
    "AuthenticationError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "NotFoundError",
    "ConflictError",
    "GoneError",
    "UnprocessableError",
    "RateLimitError",
    "UnavailableError",
    "TesseraTimeoutError",
    "TesseraConnectionError",
    "AnyInput",
    "BatchItem",
    "BatchResult",
    "DeviceInput",
    "EmailInput",
    "ErrorBody",
    "FullIdentity",
    "IdInput",
    "Identity",
    "IpInput",
    "LookupRecord",
    "LookupResult",
    "UsageCall",
    "UsageCalls",
    "UsagePoint",
    "UsageSeries",
    "UsageTotals",
    "Md5Input",
    "Metadata",
    "PhoneInput",
    "PiiInput",
    "Sha256Input",
    "TemplateIdentity",
    "VehicleInput",
    "Jobs",
    "Job",
    "JobRows",
    "JobPage",
    "JobResult",
    "JobResultItem",
    "ENDED_JOB_STATUSES",
    "Subscriptions",
    "Subscription",
    "SubscriptionPage",
    "DeletedSubscription",
    "WebhookVerificationError",
    "verify_webhook",
    "webhook_signature",
]
