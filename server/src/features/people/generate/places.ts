/**
 * Where generated people live: the 50 states and DC weighted by population (hundreds of thousands), each with
 * the first three digits its ZIP codes start with, a rough median home value (thousands of dollars) and a few
 * real cities with the ZIP prefix and telephone area code they use. Figures are approximate, written for this
 * generator.
 */
import { type Rng, Weighted } from './prng';

export interface City {
  name: string;
  state: string;
  /** First three digits of the city's ZIP codes. */
  zip3: string;
  /** Telephone area code. */
  npa: string;
}

export interface StateInfo {
  abbreviation: string;
  /** Inclusive ranges of ZIP prefixes. */
  zip3: readonly (readonly [number, number])[];
  medianHome: number;
  cities: Weighted<City>;
}

// state | population | zip prefixes | median home | city:zip3:area code:weight, ...
const DATA = `
AL|51|350-369|230|Birmingham:352:205:5, Montgomery:361:334:3, Mobile:366:251:3, Huntsville:358:256:3, Tuscaloosa:354:205:2
AK|7|995-999|370|Anchorage:995:907:6, Fairbanks:997:907:2, Juneau:998:907:1, Wasilla:996:907:1
AZ|74|850-865|430|Phoenix:850:602:10, Tucson:857:520:5, Mesa:852:480:4, Scottsdale:852:480:2, Chandler:852:480:2, Flagstaff:860:928:1
AR|30|716-729|210|Little Rock:722:501:4, Fayetteville:727:479:2, Fort Smith:729:479:2, Jonesboro:724:870:1
CA|390|900-961|780|Los Angeles:900:213:12, San Diego:921:619:6, San Jose:951:408:5, San Francisco:941:415:4, Fresno:937:559:3, Sacramento:958:916:3, Oakland:946:510:2, Long Beach:908:562:2, Bakersfield:933:661:2, Anaheim:928:714:2, Riverside:925:951:2
CO|59|800-816|560|Denver:802:303:7, Colorado Springs:809:719:5, Aurora:800:303:3, Fort Collins:805:970:2, Boulder:803:303:1, Pueblo:810:719:1
CT|36|060-069|400|Hartford:061:860:3, New Haven:065:203:3, Bridgeport:066:203:3, Stamford:069:203:3, Waterbury:067:203:2
DE|10|197-199|370|Wilmington:198:302:3, Dover:199:302:2, Newark:197:302:2
DC|7|200,202-205|620|Washington:200:202:1
FL|222|320-349|400|Jacksonville:322:904:5, Miami:331:305:5, Tampa:336:813:4, Orlando:328:407:4, St. Petersburg:337:727:3, Tallahassee:323:850:2, Fort Lauderdale:333:954:3, Gainesville:326:352:1
GA|110|300-319,398-399|330|Atlanta:303:404:8, Savannah:314:912:2, Augusta:309:706:2, Columbus:319:706:2, Macon:312:478:1, Athens:306:706:1, Marietta:300:770:2
HI|14|967-968|850|Honolulu:968:808:5, Hilo:967:808:1, Kailua:967:808:1
ID|19|832-838|460|Boise:837:208:4, Idaho Falls:834:208:1, Pocatello:832:208:1, Nampa:836:208:2, Coeur d'Alene:838:208:1
IL|125|600-629|270|Chicago:606:312:12, Aurora:605:630:2, Naperville:605:630:2, Rockford:611:815:2, Springfield:627:217:1, Peoria:616:309:1, Joliet:604:815:2
IN|68|460-479|240|Indianapolis:462:317:7, Fort Wayne:468:260:3, Evansville:477:812:1, South Bend:466:574:1, Bloomington:474:812:1
IA|32|500-528|220|Des Moines:503:515:4, Cedar Rapids:524:319:2, Davenport:528:563:2, Iowa City:522:319:1, Sioux City:511:712:1
KS|29|660-679|230|Wichita:672:316:4, Overland Park:662:913:3, Kansas City:661:913:2, Topeka:666:785:1, Lawrence:660:785:1
KY|45|400-427|210|Louisville:402:502:6, Lexington:405:859:3, Bowling Green:421:270:1, Owensboro:423:270:1, Covington:410:859:1
LA|46|700-714|200|New Orleans:701:504:4, Baton Rouge:708:225:3, Shreveport:711:318:2, Lafayette:705:337:1, Lake Charles:706:337:1
ME|14|039-049|380|Portland:041:207:3, Lewiston:042:207:1, Bangor:044:207:1, Augusta:043:207:1
MD|62|206-219|420|Baltimore:212:410:6, Frederick:217:301:2, Rockville:208:301:2, Annapolis:214:410:1, Silver Spring:209:301:2
MA|70|010-027|620|Boston:021:617:7, Worcester:016:508:3, Springfield:011:413:2, Cambridge:021:617:2, Lowell:018:978:2
MI|100|480-499|240|Detroit:482:313:6, Grand Rapids:495:616:3, Lansing:489:517:2, Ann Arbor:481:734:2, Flint:485:810:1, Kalamazoo:490:269:1
MN|57|550-567|330|Minneapolis:554:612:5, Saint Paul:551:651:3, Rochester:559:507:1, Duluth:558:218:1, Bloomington:554:952:1
MS|29|386-397|180|Jackson:392:601:3, Gulfport:395:228:2, Hattiesburg:394:601:1, Tupelo:388:662:1, Biloxi:395:228:1
MO|62|630-658|250|Kansas City:641:816:5, St. Louis:631:314:5, Springfield:658:417:2, Columbia:652:573:1, Independence:640:816:1
MT|11|590-599|460|Billings:591:406:2, Missoula:598:406:2, Great Falls:594:406:1, Bozeman:597:406:1, Helena:596:406:1
NE|20|680-693|260|Omaha:681:402:5, Lincoln:685:402:3, Grand Island:688:308:1, Kearney:688:308:1
NV|32|889-898|440|Las Vegas:891:702:7, Henderson:890:702:3, Reno:895:775:3, Carson City:897:775:1
NH|14|030-038|470|Manchester:031:603:3, Nashua:030:603:2, Concord:033:603:1, Portsmouth:038:603:1
NJ|93|070-089|520|Newark:071:973:3, Jersey City:073:201:3, Paterson:075:973:2, Trenton:086:609:2, Camden:081:856:2, Edison:088:732:2
NM|21|870-884|310|Albuquerque:871:505:5, Santa Fe:875:505:1, Las Cruces:880:575:2, Roswell:882:575:1
NY|196|100-149|460|New York:100:212:10, Brooklyn:112:718:6, Buffalo:142:716:2, Rochester:146:585:2, Syracuse:132:315:1, Albany:122:518:1, Yonkers:107:914:1
NC|108|270-289|330|Charlotte:282:704:5, Raleigh:276:919:4, Greensboro:274:336:2, Durham:277:919:2, Winston-Salem:271:336:2, Asheville:288:828:1, Wilmington:284:910:1
ND|8|580-588|260|Fargo:581:701:3, Bismarck:585:701:2, Grand Forks:582:701:1, Minot:587:701:1
OH|118|430-459|230|Columbus:432:614:5, Cleveland:441:216:4, Cincinnati:452:513:4, Toledo:436:419:2, Akron:443:330:2, Dayton:454:937:2
OK|40|730-749|200|Oklahoma City:731:405:5, Tulsa:741:918:4, Norman:730:405:1, Lawton:735:580:1, Broken Arrow:740:918:1
OR|42|970-979|500|Portland:972:503:6, Salem:973:503:2, Eugene:974:541:2, Bend:977:541:1, Medford:975:541:1
PA|130|150-196|260|Philadelphia:191:215:7, Pittsburgh:152:412:4, Allentown:181:610:2, Erie:165:814:1, Harrisburg:171:717:1, Scranton:185:570:1, Lancaster:176:717:1
RI|11|028-029|440|Providence:029:401:3, Warwick:028:401:2, Cranston:029:401:1, Newport:028:401:1
SC|53|290-299|300|Columbia:292:803:3, Charleston:294:843:3, Greenville:296:864:2, Spartanburg:293:864:1, Myrtle Beach:295:843:1
SD|9|570-577|300|Sioux Falls:571:605:3, Rapid City:577:605:2, Aberdeen:574:605:1, Brookings:570:605:1
TN|71|370-385|330|Nashville:372:615:5, Memphis:381:901:4, Knoxville:379:865:2, Chattanooga:374:423:2, Clarksville:370:931:1, Murfreesboro:371:615:1
TX|300|750-799,885|310|Houston:770:713:9, San Antonio:782:210:6, Dallas:752:214:6, Austin:787:512:4, Fort Worth:761:817:4, El Paso:799:915:3, Arlington:760:817:2, Corpus Christi:784:361:1, Plano:750:972:1, Lubbock:794:806:1
UT|34|840-847|520|Salt Lake City:841:801:4, Provo:846:801:2, Ogden:844:801:2, St. George:847:435:1, Logan:843:435:1
VT|7|050-059|380|Burlington:054:802:3, Montpelier:056:802:1, Rutland:057:802:1, Brattleboro:053:802:1
VA|87|201,220-246|400|Virginia Beach:234:757:4, Norfolk:235:757:2, Richmond:232:804:3, Arlington:222:703:2, Alexandria:223:703:2, Roanoke:240:540:1, Chesapeake:233:757:2
WA|78|980-994|600|Seattle:981:206:6, Spokane:992:509:2, Tacoma:984:253:2, Vancouver:986:360:2, Bellevue:980:425:2, Olympia:985:360:1
WV|18|247-268|160|Charleston:253:304:2, Huntington:257:304:2, Morgantown:265:304:1, Parkersburg:261:304:1, Wheeling:260:304:1
WI|59|530-549|290|Milwaukee:532:414:5, Madison:537:608:3, Green Bay:543:920:2, Kenosha:531:262:1, Appleton:549:920:1
WY|6|820-831|340|Cheyenne:820:307:2, Casper:826:307:2, Laramie:820:307:1, Gillette:827:307:1
`;

const parseRanges = (text: string) =>
  text.split(',').map((part) => {
    const [lo, hi] = part.split('-');
    return [Number(lo), Number(hi ?? lo)] as const;
  });

const rows = DATA.trim()
  .split('\n')
  .map((line) => {
    const [abbreviation, population, zip3, medianHome, cities] = line.split('|') as [
      string,
      string,
      string,
      string,
      string,
    ];
    const cityPairs = cities.split(/\s*,\s*/).map((entry) => {
      const [name, zip, npa, weight] = entry.split(':') as [string, string, string, string];
      return [{ name, state: abbreviation, zip3: zip, npa }, Number(weight)] as const;
    });
    const info: StateInfo = {
      abbreviation,
      zip3: parseRanges(zip3),
      medianHome: Number(medianHome),
      cities: Weighted.of(cityPairs),
    };
    return [info, Number(population)] as const;
  });

export const STATES: readonly StateInfo[] = rows.map(([info]) => info);
const states = Weighted.of(rows);
const byAbbreviation = new Map(STATES.map((s) => [s.abbreviation, s]));

/** Every city, for tests and for picking a place far from another. */
export const CITIES: readonly City[] = STATES.flatMap((s) => s.cities.items);

/** Every area code in use, for a phone carried over from another place. */
export const AREA_CODES: readonly string[] = [...new Set(CITIES.map((c) => c.npa))];

export function stateInfo(abbreviation: string): StateInfo {
  const info = byAbbreviation.get(abbreviation);
  if (!info) throw new Error(`Unknown state ${abbreviation}`);
  return info;
}

/** A city, weighted by state population and then by the city's share of it. */
export function pickCity(rng: Rng): City {
  return states.pick(rng).cities.pick(rng);
}

/** A city in the given state, or (elsewhere) in any other. */
export function pickCityIn(rng: Rng, state: string, elsewhere = false): City {
  if (!elsewhere) return stateInfo(state).cities.pick(rng);
  for (;;) {
    const city = pickCity(rng);
    if (city.state !== state) return city;
  }
}

/** A five-digit ZIP in the city's prefix (never ending 00) and a ZIP+4 add-on. */
export function pickZip(rng: Rng, city: City): { zip: string; zip4: string } {
  const zip = `${city.zip3}${String(rng.between(1, 98)).padStart(2, '0')}`;
  const zip4 = String(rng.between(1, 9999)).padStart(4, '0');
  return { zip, zip4 };
}
