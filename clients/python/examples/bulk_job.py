import os

from tessera import Tessera

client = Tessera(os.environ["TESSERA_BASE_URL"], os.environ["TESSERA_API_KEY"])


def progress(job):
    print("%s: %d of %d rows" % (job["status"], job["rows"]["done"], job["rows"]["total"]))


# customers.csv: a header row naming byEmail's input (email) beside your own columns, then a customer a row.
job = client.jobs.submit("byEmail", "customers.csv", template=3, format="csv")
done = client.jobs.wait(job["id"], poll_interval=2.0, timeout=30 * 60, on_progress=progress)
if done["status"] != "completed":
    raise SystemExit("Job %s %s: %s" % (done["id"], done["status"], done["error"]))
written = client.jobs.download(done["id"], "customers-result.csv")
rows = done["rows"]
print("%d of %d rows matched; %d bytes in customers-result.csv" % (rows["matched"], rows["total"], written))
