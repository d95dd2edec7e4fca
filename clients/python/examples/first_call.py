import json
import os

from tessera import Tessera

client = Tessera(os.environ["TESSERA_BASE_URL"], os.environ["TESSERA_API_KEY"])
email = os.environ.get("TESSERA_EMAIL", "p-622a0bfe-fee8-4b07-b89b-b6c601d56a08@people.example")

result = client.by_email.get(email)
print(json.dumps(result["identities"], indent=2))
