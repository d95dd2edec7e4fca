import com.tessera.client.Json;
import com.tessera.client.LookupResult;
import com.tessera.client.TesseraClient;

public class FirstCall {
  public static void main(String[] args) {
    String email = System.getenv()
        .getOrDefault("TESSERA_EMAIL", "judith.miller@icloud.com");
    TesseraClient client = TesseraClient.builder()
        .baseUrl(System.getenv("TESSERA_BASE_URL"))
        .apiKey(System.getenv("TESSERA_API_KEY"))
        .build();
    LookupResult result = client.byEmail(email);
    System.out.println(Json.pretty(result.identities()));
  }
}
