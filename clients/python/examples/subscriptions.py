import os

from tessera import Tessera

# A live key of your organization.
client = Tessera(os.environ["TESSERA_BASE_URL"], os.environ["TESSERA_API_KEY"])
email = os.environ.get("TESSERA_EMAIL", "judith.miller@icloud.com")

# By input (email, phone, md5 or sha256: followed to whoever holds it), or by identity_id.
subscription = client.subscriptions.create(email=email)
print("subscription %d follows identity %d" % (subscription["id"], subscription["identityId"]))
for s in client.subscriptions.iter():
    print(s["id"], s["identityId"], s["input"]["kind"] if s["input"] else "identityId")
client.subscriptions.delete(subscription["id"])
