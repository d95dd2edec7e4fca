import json
import os

from tessera import Tessera

client = Tessera(os.environ["TESSERA_BASE_URL"], os.environ["TESSERA_API_KEY"])
email = os.environ.get("TESSERA_EMAIL", "judith.miller@icloud.com")

result = client.by_email.get(email)
print(json.dumps(result["identities"], indent=2))
