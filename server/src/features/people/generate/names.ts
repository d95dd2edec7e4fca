/**
 * Given names by gender and family names, each with a weight close to how often it occurs among US adults
 * today (rough figures written for this generator: relative, not counts). Nicknames live in ../nicknames.ts.
 */
import { type Rng, Weighted } from './prng';

const table = (text: string): [string, number][] =>
  text
    .trim()
    .split(/\s*,\s*/)
    .map((entry) => {
      const [name, weight] = entry.split(':');
      return [name!.trim(), Number(weight)];
    });

const FEMALE = table(`
  Mary:260, Patricia:110, Jennifer:110, Linda:100, Elizabeth:95, Barbara:95, Susan:85, Jessica:80, Sarah:75,
  Karen:75, Lisa:70, Nancy:70, Betty:55, Sandra:60, Margaret:60, Ashley:60, Kimberly:55, Emily:55, Donna:55,
  Michelle:55, Carol:50, Amanda:50, Melissa:48, Deborah:48, Stephanie:47, Dorothy:45, Rebecca:44, Sharon:44,
  Laura:43, Cynthia:42, Amy:40, Kathleen:40, Angela:40, Shirley:38, Brenda:37, Emma:36, Anna:35, Pamela:35,
  Nicole:35, Samantha:34, Katherine:34, Christine:33, Debra:33, Rachel:32, Carolyn:31, Janet:31, Maria:31,
  Olivia:30, Heather:30, Helen:30, Catherine:29, Diane:29, Julie:28, Victoria:28, Joyce:28, Lauren:27, Kelly:27,
  Christina:27, Ruth:26, Joan:26, Virginia:25, Judith:25, Evelyn:24, Hannah:24, Andrea:24, Megan:23, Cheryl:23,
  Jacqueline:23, Madison:22, Teresa:22, Abigail:22, Sophia:22, Martha:21, Sara:21, Gloria:21, Janice:21,
  Kathryn:20, Ann:20, Isabella:20, Judy:20, Charlotte:20, Julia:20, Grace:19, Amber:19, Alice:19, Jean:19,
  Denise:19, Frances:18, Danielle:18, Marilyn:18, Natalie:18, Beverly:17, Diana:17, Brittany:17, Theresa:17,
  Kayla:17, Alexis:16, Doris:16, Lori:16, Tiffany:16, Kristen:16, Ava:15, Mia:15, Jane:15, Rose:15, Tammy:15,
  Crystal:14, Erin:14, Allison:14, Wendy:14, Lily:13, Chloe:13, Valerie:13, Monica:13, Tracy:12, Brianna:12,
  Alexandra:12, Rosa:12, Veronica:11, Ella:11, Peggy:11, Vanessa:11, Leah:10, Paula:10, Dawn:10, Gabriela:10,
  Yolanda:9, Jasmine:9, Lucy:9, Vivian:8, Carmen:8, Norma:8, Ruby:8, Claire:8, Savannah:8, Alyssa:8, Morgan:8,
  Taylor:8, Addison:7, Aubrey:7, Harper:7, Avery:7, Erica:7, Eleanor:7, Marie:7, Haley:7, Kaitlyn:7,
  Penelope:6, Zoe:6, Nora:6, Layla:6, Chelsea:6, Courtney:6, Whitney:6, Lindsey:6, Caroline:6, Holly:6,
  Kristin:6, Stacy:6, Bonnie:6, Lois:6, Josephine:6, Jill:6, Leslie:6, Ana:6, Sydney:6, Madeline:6, Jenna:6,
  Brooke:6, Kelsey:6, Gail:5, Connie:5, Sylvia:5, Dolores:5, Rita:5, Irene:5, Lillian:5, Edith:5, Carla:5,
  Sherry:5, Tara:5, Guadalupe:5, Mackenzie:5, Autumn:5, Paige:5, Kylie:5, Caitlin:5, Hailey:5, Shelby:5,
  Molly:5, Eva:5, Naomi:5, Ariana:5, Mildred:4, Florence:4, Jordan:4
`);

const MALE = table(`
  James:330, John:320, Robert:310, Michael:300, William:250, David:250, Richard:160, Joseph:150, Thomas:150,
  Charles:140, Christopher:130, Daniel:125, Matthew:105, Anthony:90, Mark:90, Donald:85, Steven:85, Paul:80,
  Andrew:78, Joshua:75, Kenneth:72, Kevin:70, Brian:70, George:68, Timothy:62, Ronald:62, Edward:60, Jason:58,
  Jeffrey:57, Ryan:56, Jacob:55, Gary:54, Nicholas:53, Eric:52, Jonathan:50, Stephen:50, Larry:48, Justin:47,
  Scott:47, Brandon:46, Benjamin:45, Samuel:44, Gregory:43, Alexander:43, Frank:42, Patrick:42, Raymond:41,
  Jack:40, Dennis:40, Jerry:39, Tyler:38, Aaron:37, Jose:37, Adam:36, Nathan:35, Henry:35, Douglas:34,
  Zachary:34, Peter:33, Kyle:33, Ethan:32, Walter:32, Noah:31, Jeremy:31, Christian:30, Keith:30, Roger:29,
  Terry:29, Gerald:28, Harold:28, Sean:28, Austin:27, Carl:27, Arthur:27, Lawrence:26, Dylan:26, Jesse:25,
  Jordan:25, Bryan:25, Billy:24, Bruce:24, Gabriel:23, Logan:23, Albert:23, Willie:22, Alan:22, Juan:22,
  Wayne:22, Elijah:21, Randy:21, Roy:21, Vincent:21, Ralph:20, Eugene:20, Russell:20, Bobby:20, Mason:19,
  Philip:19, Louis:19, Harry:18, Johnny:18, Howard:18, Carlos:18, Luis:17, Liam:17, Fred:17, Todd:16, Craig:16,
  Shawn:16, Travis:15, Victor:15, Martin:15, Joel:15, Evan:14, Luke:14, Antonio:14, Jimmy:14, Isaac:13,
  Caleb:13, Lucas:13, Oliver:13, Owen:12, Hunter:12, Connor:12, Derek:12, Marcus:12, Miguel:12, Cody:12,
  Dale:11, Jay:11, Manuel:11, Stanley:11, Leonard:11, Curtis:11, Edwin:10, Glenn:10, Francisco:10, Chad:10,
  Troy:10, Jesus:10, Theodore:10, Mario:9, Clarence:9, Ricardo:9, Frederick:9, Allen:9, Jeffery:8,
  Mitchell:8, Leo:8, Ernest:8, Phillip:8, Jared:8, Adrian:8, Angel:8, Dustin:8, Sebastian:8, Bernard:7,
  Calvin:7, Eddie:7, Marvin:7, Dean:7, Barry:7, Francis:7, Herbert:7, Lee:7, Wyatt:7, Carter:7, Jayden:7,
  Julian:7, Ian:7, Jorge:7, Leon:6, Gordon:6, Spencer:6, Trevor:6, Colin:6, Grayson:6, Levi:6, Dominic:6,
  Xavier:6, Cole:6, Blake:6, Chase:6, Seth:6, Rodney:6, Norman:6, Earl:6, Pedro:6, Roberto:6, Fernando:6,
  Eduardo:6, Javier:6, Hudson:5, Garrett:5, Brett:5, Derrick:5, Marc:5, Gene:5, Warren:5, Alfred:5, Neil:5,
  Hector:5, Ramon:5, Andre:5, Diego:5, Lloyd:4, Vernon:4, Clifford:4, Lewis:4, Glen:4, Gilbert:4, Darius:4,
  Malik:4, Andres:4, Omar:4, Bradley:4, Alejandro:4
`);

const LAST = table(`
  Smith:2442, Johnson:1933, Williams:1625, Brown:1437, Jones:1425, Garcia:1166, Miller:1161, Davis:1116,
  Rodriguez:1094, Martinez:1060, Hernandez:1043, Lopez:874, Gonzalez:841, Wilson:801, Anderson:784, Thomas:756,
  Taylor:751, Moore:724, Jackson:708, Martin:702, Lee:693, Perez:681, Thompson:664, White:660, Harris:624,
  Sanchez:612, Clark:562, Ramirez:557, Lewis:531, Robinson:529, Walker:523, Young:484, Allen:482, King:465,
  Wright:458, Scott:439, Torres:437, Nguyen:437, Hill:434, Flores:433, Green:430, Adams:427, Nelson:424,
  Baker:419, Hall:407, Rivera:404, Campbell:371, Mitchell:367, Carter:362, Roberts:361, Gomez:351, Phillips:351,
  Evans:342, Turner:338, Diaz:335, Parker:331, Cruz:321, Edwards:320, Collins:318, Reyes:317, Stewart:312,
  Morris:301, Morales:301, Murphy:300, Cook:294, Rogers:294, Gutierrez:282, Ortiz:276, Morgan:275, Cooper:270,
  Peterson:270, Bailey:266, Reed:266, Kelly:262, Howard:262, Ramos:250, Kim:249, Cox:248, Ward:246,
  Richardson:242, Watson:239, Brooks:238, Chavez:236, Wood:236, James:234, Bennett:232, Gray:232, Mendoza:231,
  Ruiz:229, Hughes:228, Price:227, Alvarez:226, Castillo:225, Sanders:225, Patel:224, Myers:223, Long:222,
  Ross:221, Foster:220, Jimenez:216, Powell:211, Jenkins:210, Perry:209, Russell:207, Sullivan:206, Bell:206,
  Coleman:205, Butler:204, Henderson:204, Barnes:203, Gonzales:202, Fisher:200, Vasquez:199, Simmons:198,
  Romero:196, Jordan:193, Patterson:193, Alexander:191, Hamilton:190, Graham:189, Reynolds:188, Griffin:188,
  Wallace:187, Moreno:187, West:186, Cole:185, Hayes:184, Bryant:183, Herrera:182, Gibson:181, Ellis:181,
  Tran:180, Medina:179, Aguilar:178, Stevens:177, Murray:177, Ford:175, Castro:175, Marshall:174, Owens:173,
  Harrison:172, Fernandez:171, McDonald:171, Woods:170, Washington:170, Kennedy:169, Wells:168, Vargas:167,
  Henry:166, Chen:165, Freeman:164, Webb:164, Tucker:163, Guzman:162, Burns:162, Crawford:161, Olson:160,
  Simpson:160, Porter:159, Hunter:159, Gordon:158, Mendez:158, Silva:157, Shaw:157, Snyder:156, Mason:156,
  Dixon:155, Munoz:155, Hunt:154, Hicks:153, Holmes:153, Palmer:152, Wagner:151, Black:151, Robertson:150,
  Boyd:150, Rose:149, Stone:148, Salazar:148, Fox:147, Warren:147, Mills:146, Meyer:146, Rice:145, Schmidt:145,
  Garza:144, Daniels:144, Ferguson:143, Nichols:143, Stephens:142, Soto:142, Weaver:141, Ryan:141, Gardner:140,
  Payne:140, Grant:139, Dunn:139, Kelley:138, Spencer:138, Hawkins:137, Arnold:137, Pierce:136, Vazquez:136,
  Hansen:135, Peters:135, Santos:134, Hart:134, Bradley:133, Knight:133, Elliott:132, Cunningham:132,
  Duncan:131, Armstrong:131, Hudson:130, Carroll:130, Lane:129, Riley:129, Andrews:128, Alvarado:128, Ray:127,
  Delgado:127, Berry:126, Perkins:126, Hoffman:125, Johnston:125, Matthews:124, Pena:124, Richards:123,
  Contreras:123, Willis:122, Carpenter:122, Lawrence:121, Sandoval:121, Guerrero:120, George:120, Chapman:119,
  Rios:119, Estrada:118, Ortega:118, Watkins:117, Greene:117, Nunez:116, Wheeler:116, Valdez:115, Harper:115,
  Burke:114, Larson:114, Santiago:113, Maldonado:113, Morrison:112, Franklin:112, Carlson:111, Austin:111,
  Dominguez:110, Carr:110, Lawson:109, Jacobs:109, O'Brien:108, Lynch:108, Singh:107, Vega:107, Bishop:106,
  Montgomery:106, Oliver:105, Jensen:105, Harvey:104, Williamson:104, Gilbert:103, Dean:103, Sims:102,
  Espinoza:102, Howell:101, Li:101, Wong:100, Reid:100, Hanson:99, Le:99, McCoy:98, Garrett:98, Burton:97,
  Fuller:97, Wang:96, Weber:96, Welch:95, Rojas:95, Lucas:94, Marquez:94, Fields:93, Park:93, Yang:92,
  Little:92, Banks:91, Padilla:91, Day:90, Walsh:90, Bowman:89, Schultz:89, Luna:88, Fowler:88, Mejia:87,
  Davidson:87, Acosta:86, Brewer:86, May:85, Holland:85, Juarez:84, Newman:84, Pearson:83, Curtis:83,
  Cortez:82, Douglas:82, Schneider:81, Joseph:81, Barrett:80, Navarro:80, Figueroa:79, Keller:79, Avila:78,
  Wade:78, Molina:77, Stanley:77, Hopkins:76, Campos:76, Barnett:75, Bates:75, Chambers:74, Caldwell:74,
  Beck:73, Lambert:73, Miranda:72, Byrd:72, Craig:71, Ayala:71, Lowe:70, Frazier:70, Powers:69, Neal:69,
  Leonard:68, Gregory:68, Carrillo:67, Sutton:67, Fleming:66, Rhodes:66, Shelton:65, Schwartz:65, Norris:64,
  Jennings:64, Watts:63, Duran:63, Walters:62, Cohen:62, McDaniel:61, Moran:61, Parks:60, Steele:60,
  Vaughn:59, Becker:59, Holt:58, DeLeon:58, Barker:57, Terry:57, Hale:56, Leon:56, Benson:55, Haynes:55,
  Horton:54, Miles:54, Lyons:53, Pham:53, Graves:52, Bush:52, Thornton:51, Wolfe:51, Warner:50, Cabrera:50,
  McKinney:49, Mann:49, Zimmerman:48, Dawson:48, Lara:47, Fletcher:47, Page:46, McCarthy:46, Love:45,
  Robles:45, Cervantes:44, Solis:44, Erickson:43, Reeves:43, Chang:42, Klein:42, Salinas:41, Fuentes:41,
  Baldwin:40, Daniel:40, Simon:39, Velasquez:39, Hardy:38, Higgins:38, Aguirre:37, Lin:37, Cummings:36,
  Chandler:36, Sharp:35, Barber:35, Bowen:34, Ochoa:34, Dennis:33, Robbins:33, Liu:32, Ramsey:32, Francis:31,
  Griffith:31, Paul:30, Blair:30, O'Connor:30, Cardenas:29, Pacheco:29, Cross:28, Calderon:28, Quinn:28,
  Moss:27, Swanson:27, Chan:27, Rivas:26, Khan:26, Rodgers:26, Serrano:25, Fitzgerald:25, Rosales:25,
  Stevenson:24, Christensen:24, Manning:24, Gill:23, Curry:23, McLaughlin:23, Harmon:22, McGee:22, Gross:22,
  Doyle:22, Garner:21, Newton:21, Burgess:21, Reese:20, Walton:20, Blake:20, Trujillo:20, Adkins:19, Brady:19,
  Goodman:19, Roman:19, Webster:18, Goodwin:18, Fischer:18, Huang:18, Potter:17, De La Cruz:17, Montoya:17,
  Todd:17, Wu:16, Hines:16, Mullins:16, Castaneda:16, Malone:16, Cannon:15, Tate:15, Mack:15, Sherman:15,
  Hubbard:15, Hodges:15, Zhang:15, Guerra:14, Wolf:14, Valencia:14, Saunders:14, Franco:14, Rowe:14,
  Gallagher:13, Farmer:13, Hammond:13, Hampton:13, Townsend:13, Ingram:13, Wise:13, Gallegos:12, Clarke:12,
  Barton:12, Schroeder:12, Maxwell:12, Waters:12, Logan:12, Camacho:12, Strickland:12, Norman:11, Colon:11,
  Parsons:11, Frank:11, Harrington:11, Glover:11, Osborne:11, Buchanan:11, Casey:11, Floyd:10, Patton:10,
  Ibarra:10, Ball:10, Tyler:10, Suarez:10, Bowers:10, Orozco:10, Salas:10, Cobb:10, Gibbs:10, Andrade:10,
  Bauer:10, Conner:10, Moody:10, Escobar:10, McGuire:10, Lloyd:10, Mueller:10, Hartman:10, French:10,
  Kramer:10, McBride:10, Pope:10, Lindsey:10, Velazquez:10, Norton:10, McCormick:10, Sparks:10, Flynn:10,
  Yates:10, Hogan:10, Marsh:10, Macias:10, Villanueva:10, Zamora:10, Pratt:10, Stokes:10, Owen:10, Ballard:10,
  Lang:10, Brock:10, Villarreal:10, Charles:10, Drake:10, Barrera:10, Cain:10, Patrick:10, Pineda:10,
  Burnett:10, Mercado:10, Santana:10, Shepherd:10, Bautista:10, Ali:10, Shaffer:10, Lamb:10, Trevino:10,
  McKenzie:10, Hess:10
`);

export const FEMALE_NAMES: readonly string[] = FEMALE.map(([n]) => n);
export const MALE_NAMES: readonly string[] = MALE.map(([n]) => n);
export const LAST_NAMES: readonly string[] = LAST.map(([n]) => n);

const female = Weighted.of(FEMALE);
const male = Weighted.of(MALE);
const last = Weighted.of(LAST);

export type Gender = 'F' | 'M' | '';

/** A given name for the gender ('' picks either). */
export function givenName(rng: Rng, gender: Gender): string {
  const g = gender === '' ? (rng.chance(0.5) ? 'F' : 'M') : gender;
  return (g === 'F' ? female : male).pick(rng);
}

export function lastName(rng: Rng): string {
  return last.pick(rng);
}

/** A middle name: usually a full given name, sometimes only its initial, sometimes none. */
export function middleName(rng: Rng, gender: Gender, first: string): string {
  const roll = rng.below(100);
  if (roll < 22) return '';
  let name = givenName(rng, gender);
  if (name === first) name = givenName(rng, gender);
  return roll < 45 ? name[0]! : name;
}

/** Generational suffixes, mostly on men. */
export function nameSuffix(rng: Rng, gender: Gender): string {
  if (gender === 'F') return '';
  const roll = rng.below(1000);
  if (roll < 30) return 'Jr';
  if (roll < 40) return 'Sr';
  if (roll < 46) return 'II';
  if (roll < 51) return 'III';
  if (roll < 52) return 'IV';
  return '';
}
