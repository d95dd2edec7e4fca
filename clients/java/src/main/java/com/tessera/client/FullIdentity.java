package com.tessera.client;

import static com.tessera.client.JsonFields.bool;
import static com.tessera.client.JsonFields.date;
import static com.tessera.client.JsonFields.integer;
import static com.tessera.client.JsonFields.nullableInteger;
import static com.tessera.client.JsonFields.number;
import static com.tessera.client.JsonFields.objects;
import static com.tessera.client.JsonFields.string;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An identity as the Full template (id 1, the default) returns it: the OpenAPI document's {@code FullIdentity}, the
 * score and what it matched on, then the whole lookup record ({@code LookupRecord}; docs/identity-record.md). Record
 * types the caller may not see are empty (empty lists, {@code finances} null, {@code data} empty).
 *
 * @param score how sure the match is, 0 to 100
 * @param matchedOn the inputs it matched on ({@code email}, {@code phone}, {@code firstName}, ...)
 * @param explain with {@code explain}: each field's contribution to the score; otherwise null
 * @param id the identity id, unique in the graph
 * @param middleName a name, an initial or ""
 * @param suffix "Jr", "Sr", "II", "III", "IV" or ""
 * @param gender "F", "M" or "" when unknown
 * @param birthYear the year of birth, or null
 * @param address street address line with any unit
 * @param state two-letter USPS abbreviation, or ""
 * @param zip five-digit ZIP code, or ""
 * @param zip4 ZIP+4 add-on, or ""
 * @param firstSeen first day the record was seen
 * @param lastSeen last day the record was seen
 * @param finances household finances, or null
 * @param data demographic attributes, one value per key
 */
public record FullIdentity(
    double score,
    List<String> matchedOn,
    Map<String, Object> explain,
    long id,
    String firstName,
    String middleName,
    String lastName,
    String suffix,
    String gender,
    Integer birthYear,
    String address,
    String city,
    String state,
    String zip,
    String zip4,
    LocalDate firstSeen,
    LocalDate lastSeen,
    List<Email> emails,
    List<Phone> phones,
    List<Ip> ips,
    List<Device> devices,
    List<Vehicle> vehicles,
    List<Property> properties,
    Finances finances,
    List<Company> companies,
    List<Behavior> behaviors,
    Map<String, String> data)
    implements JsonWritable {

  /**
   * Reads a Full identity from its JSON object.
   *
   * @throws JsonException when a field of the Full record is missing or of another type
   */
  public static FullIdentity of(Map<String, Object> json) {
    String w = "identity";
    Object explain = json.get("explain");
    Long birthYear = nullableInteger(json, "birthYear", w);
    Object finances = JsonFields.required(json, "finances", w);
    return new FullIdentity(
        number(json, "score", w),
        JsonFields.strings(JsonFields.required(json, "matchedOn", w), w + ".matchedOn"),
        explain == null ? null : JsonFields.frozenObject(explain, w + ".explain"),
        integer(json, "id", w),
        string(json, "firstName", w),
        string(json, "middleName", w),
        string(json, "lastName", w),
        string(json, "suffix", w),
        string(json, "gender", w),
        birthYear == null ? null : birthYear.intValue(),
        string(json, "address", w),
        string(json, "city", w),
        string(json, "state", w),
        string(json, "zip", w),
        string(json, "zip4", w),
        date(json, "firstSeen", w),
        date(json, "lastSeen", w),
        objects(json, "emails", w, Email::of),
        objects(json, "phones", w, Phone::of),
        objects(json, "ips", w, Ip::of),
        objects(json, "devices", w, Device::of),
        objects(json, "vehicles", w, Vehicle::of),
        objects(json, "properties", w, Property::of),
        finances == null ? null : Finances.of(JsonFields.object(finances, w + ".finances")),
        objects(json, "companies", w, Company::of),
        objects(json, "behaviors", w, Behavior::of),
        JsonFields.stringMap(JsonFields.required(json, "data", w), w + ".data"));
  }

  /** The full name: first, middle, last and suffix, those that are not empty. */
  public String fullName() {
    StringBuilder sb = new StringBuilder();
    for (String part : new String[] {firstName, middleName, lastName, suffix}) {
      if (part == null || part.isEmpty()) continue;
      if (sb.length() > 0) sb.append(' ');
      sb.append(part);
    }
    return sb.toString();
  }

  @Override
  public Object toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("score", score);
    m.put("matchedOn", matchedOn);
    if (explain != null) m.put("explain", explain);
    m.put("id", id);
    m.put("firstName", firstName);
    m.put("middleName", middleName);
    m.put("lastName", lastName);
    m.put("suffix", suffix);
    m.put("gender", gender);
    m.put("birthYear", birthYear);
    m.put("address", address);
    m.put("city", city);
    m.put("state", state);
    m.put("zip", zip);
    m.put("zip4", zip4);
    m.put("firstSeen", firstSeen.toString());
    m.put("lastSeen", lastSeen.toString());
    m.put("emails", emails);
    m.put("phones", phones);
    m.put("ips", ips);
    m.put("devices", devices);
    m.put("vehicles", vehicles);
    m.put("properties", properties);
    m.put("finances", finances);
    m.put("companies", companies);
    m.put("behaviors", behaviors);
    m.put("data", data);
    return m;
  }

  /**
   * An e-mail address of the person.
   *
   * @param address normalized: trimmed, lower case
   * @param md5 MD5 of the address, lowercase hex
   * @param sha256 SHA-256 of the address, lowercase hex
   */
  public record Email(String address, String md5, String sha256, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Email of(Map<String, Object> m) {
      String w = "email";
      return new Email(
          string(m, "address", w),
          string(m, "md5", w),
          string(m, "sha256", w),
          date(m, "firstSeen", w),
          date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("address", address);
      m.put("md5", md5);
      m.put("sha256", sha256);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * A phone number of the person.
   *
   * @param number E.164, e.g. +14155550123
   * @param type "mobile" or "landline"
   * @param doNotCall on the do-not-call registry
   */
  public record Phone(
      String number, String type, String carrier, boolean doNotCall, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Phone of(Map<String, Object> m) {
      String w = "phone";
      return new Phone(
          string(m, "number", w),
          string(m, "type", w),
          string(m, "carrier", w),
          bool(m, "doNotCall", w),
          date(m, "firstSeen", w),
          date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("number", number);
      m.put("type", type);
      m.put("carrier", carrier);
      m.put("doNotCall", doNotCall);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * An IP address the person used.
   *
   * @param ip IPv4 dotted quad or IPv6 in canonical (RFC 5952) form
   */
  public record Ip(String ip, LocalDate firstSeen, LocalDate lastSeen) implements JsonWritable {
    static Ip of(Map<String, Object> m) {
      String w = "ip";
      return new Ip(string(m, "ip", w), date(m, "firstSeen", w), date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("ip", ip);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * A mobile device of the person.
   *
   * @param deviceId mobile advertising id, lower case with hyphens
   * @param type "idfa" (Apple) or "aaid" (Android)
   */
  public record Device(String deviceId, String type, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Device of(Map<String, Object> m) {
      String w = "device";
      return new Device(
          string(m, "deviceId", w), string(m, "type", w), date(m, "firstSeen", w), date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("deviceId", deviceId);
      m.put("type", type);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * A vehicle of the person.
   *
   * @param vin 17 characters, upper case
   * @param year model year, or null
   */
  public record Vehicle(String vin, Integer year, String make, String model, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Vehicle of(Map<String, Object> m) {
      String w = "vehicle";
      Long year = nullableInteger(m, "year", w);
      return new Vehicle(
          string(m, "vin", w),
          year == null ? null : year.intValue(),
          string(m, "make", w),
          string(m, "model", w),
          date(m, "firstSeen", w),
          date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("vin", vin);
      m.put("year", year);
      m.put("make", make);
      m.put("model", model);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * A property of the person.
   *
   * @param type e.g. "Single Family Residence", "Condominium"
   * @param value estimated value in US dollars, or null
   */
  public record Property(String type, Long value, boolean ownerOccupied, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Property of(Map<String, Object> m) {
      String w = "property";
      return new Property(
          string(m, "type", w),
          nullableInteger(m, "value", w),
          bool(m, "ownerOccupied", w),
          date(m, "firstSeen", w),
          date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", type);
      m.put("value", value);
      m.put("ownerOccupied", ownerOccupied);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * Household finances, as ranges.
   *
   * @param income e.g. "$50K-$75K"
   * @param netWorth e.g. "$100K-$250K"
   * @param credit e.g. "Good (670-739)"
   */
  public record Finances(String income, String netWorth, String credit) implements JsonWritable {
    static Finances of(Map<String, Object> m) {
      String w = "finances";
      return new Finances(string(m, "income", w), string(m, "netWorth", w), string(m, "credit", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("income", income);
      m.put("netWorth", netWorth);
      m.put("credit", credit);
      return m;
    }
  }

  /**
   * A company the person works for.
   *
   * @param domain the company's web domain, lower case
   * @param title the person's job title there
   */
  public record Company(String name, String domain, String title, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Company of(Map<String, Object> m) {
      String w = "company";
      return new Company(
          string(m, "name", w),
          string(m, "domain", w),
          string(m, "title", w),
          date(m, "firstSeen", w),
          date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", name);
      m.put("domain", domain);
      m.put("title", title);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }

  /**
   * An interest, purchase or other behaviour of the person.
   *
   * @param category e.g. "Interests", "Purchases"
   */
  public record Behavior(String category, String name, LocalDate firstSeen, LocalDate lastSeen)
      implements JsonWritable {
    static Behavior of(Map<String, Object> m) {
      String w = "behavior";
      return new Behavior(
          string(m, "category", w), string(m, "name", w), date(m, "firstSeen", w), date(m, "lastSeen", w));
    }

    @Override
    public Object toJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("category", category);
      m.put("name", name);
      m.put("firstSeen", firstSeen.toString());
      m.put("lastSeen", lastSeen.toString());
      return m;
    }
  }
}
