import com.tessera.client.Endpoint;
import com.tessera.client.Job;
import com.tessera.client.JobOptions;
import com.tessera.client.TesseraClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

public class BulkJob {
  public static void main(String[] args) throws IOException {
    TesseraClient client = TesseraClient.builder()
        .baseUrl(System.getenv("TESSERA_BASE_URL"))
        .apiKey(System.getenv("TESSERA_API_KEY"))
        .build();

    // customers.csv: a header row naming byEmail's input (email) beside your own columns, then a customer a row.
    Job job = client.jobs().submit(
        Endpoint.BY_EMAIL, Path.of("customers.csv"), JobOptions.defaults().template(3));
    Job done = client.jobs().waitFor(job.id(), Duration.ofSeconds(2), Duration.ofMinutes(30),
        j -> System.out.println(j.status().apiName() + ": " + j.rows().done() + " of "
            + j.rows().total() + " rows"));
    if (done.status() != Job.Status.COMPLETED) {
      throw new IllegalStateException("Job " + done.id() + " " + done.status().apiName() + ": " + done.error());
    }
    long bytes = client.jobs().download(done.id(), Path.of("customers-result.csv"));
    System.out.println(done.rows().matched() + " of " + done.rows().total() + " rows matched; "
        + bytes + " bytes in customers-result.csv");
  }
}
