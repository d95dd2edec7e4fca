import com.tessera.client.NewSubscription;
import com.tessera.client.Subscription;
import com.tessera.client.TesseraClient;

public class Subscribe {
  public static void main(String[] args) {
    String email = System.getenv()
        .getOrDefault("TESSERA_EMAIL", "judith.miller@icloud.com");
    TesseraClient client = TesseraClient.builder()
        .baseUrl(System.getenv("TESSERA_BASE_URL"))
        .apiKey(System.getenv("TESSERA_API_KEY")) // a live key of your organization
        .build();

    // By input (email, phone, md5 or sha256: followed to whoever holds it), or NewSubscription.identity(id).
    Subscription subscription = client.subscriptions().create(NewSubscription.email(email));
    System.out.println("subscription " + subscription.id() + " follows identity " + subscription.identityId());
    client.subscriptions().all().forEach(s -> System.out.println(
        s.id() + " " + s.identityId() + " " + (s.input() == null ? "identityId" : s.input().kind())));
    client.subscriptions().delete(subscription.id());
  }
}
