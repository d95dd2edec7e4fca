/**
 * Formal given names and the nicknames people go by (written for Tessera from common US usage). The generator
 * records some people under a nickname and puts nicknames into noisy queries; the matcher treats a name and its
 * nicknames, and two nicknames of the same formal name, as the same given name.
 */

const TABLE = `
  Abigail: Abby, Abbie, Gail
  Albert: Al, Bert, Bertie
  Alexander: Alex, Al, Xander, Sandy
  Alexandra: Alex, Alexa, Lexi, Sandra, Sandy
  Alexis: Lexi, Alex
  Alfred: Al, Alfie, Fred
  Allison: Ally, Allie
  Amanda: Mandy, Manda
  Andrea: Andi, Andie
  Andrew: Andy, Drew
  Angela: Angie
  Ann: Annie, Nan, Nancy
  Anna: Annie
  Anthony: Tony
  Antonio: Tony
  Arthur: Art, Artie
  Barbara: Barb, Barbie, Babs
  Benjamin: Ben, Benny, Benji
  Bernard: Bernie
  Beverly: Bev
  Bradley: Brad
  Calvin: Cal
  Caroline: Carrie, Carol, Caro
  Catherine: Cathy, Cate, Kate, Katie
  Charles: Charlie, Chuck, Chas
  Christina: Chris, Tina, Christy
  Christine: Chris, Chrissy, Tina
  Christopher: Chris, Topher, Kit
  Clifford: Cliff
  Curtis: Curt
  Cynthia: Cindy
  Daniel: Dan, Danny
  Danielle: Dani, Elle
  David: Dave, Davey
  Deborah: Deb, Debbie
  Debra: Deb, Debbie
  Dennis: Denny
  Dolores: Lola, Dee
  Dominic: Dom, Nick
  Donald: Don, Donnie
  Dorothy: Dot, Dottie, Dolly
  Douglas: Doug
  Edward: Ed, Eddie, Ted, Ned
  Eleanor: Ellie, Nora, Nell
  Elizabeth: Liz, Beth, Betty, Eliza, Lizzie, Libby, Betsy
  Emily: Em, Emmy
  Eugene: Gene
  Evelyn: Evie
  Frances: Fran, Frannie
  Francis: Frank, Fran
  Frederick: Fred, Freddie, Rick
  Gabriel: Gabe
  Gabriela: Gabby, Gabi
  Gerald: Jerry, Gerry
  Gregory: Greg
  Harold: Harry, Hal
  Henry: Hank, Harry
  Herbert: Herb, Bert
  Isaac: Ike
  Isabella: Bella, Izzy
  Jacob: Jake
  Jacqueline: Jackie
  James: Jim, Jimmy, Jamie
  Jeffery: Jeff
  Jeffrey: Jeff
  Jennifer: Jen, Jenny, Jenn
  Jessica: Jess, Jessie
  John: Jack, Johnny
  Jonathan: Jon, Jonny
  Joseph: Joe, Joey
  Josephine: Jo, Josie
  Joshua: Josh
  Judith: Judy
  Katherine: Kate, Katie, Kathy, Kat, Kay
  Kathleen: Kathy, Kate, Katie
  Kathryn: Kathy, Kate, Katie
  Kenneth: Ken, Kenny
  Kimberly: Kim
  Lawrence: Larry
  Leonard: Leo, Len, Lenny
  Lillian: Lily, Lil
  Louis: Lou
  Madeline: Maddie
  Madison: Maddie
  Manuel: Manny
  Margaret: Maggie, Meg, Peggy, Marge, Greta
  Martha: Marty, Mattie
  Matthew: Matt, Matty
  Melissa: Missy, Mel
  Michael: Mike, Mikey, Mick
  Michelle: Shelly, Mickey
  Mitchell: Mitch
  Nathan: Nate
  Nicholas: Nick, Nicky
  Nicole: Nikki, Nicky
  Olivia: Liv, Livvy
  Pamela: Pam
  Patricia: Pat, Patty, Tricia, Trish
  Patrick: Pat
  Peter: Pete
  Philip: Phil
  Phillip: Phil
  Raymond: Ray
  Rebecca: Becky, Becca
  Richard: Rick, Dick, Rich, Richie, Ricky
  Robert: Bob, Rob, Bobby, Robbie, Bert
  Ronald: Ron, Ronnie
  Russell: Russ
  Samantha: Sam, Sammie
  Samuel: Sam, Sammy
  Sandra: Sandy
  Sophia: Sophie
  Stanley: Stan
  Stephanie: Steph
  Stephen: Steve
  Steven: Steve
  Susan: Sue, Susie
  Theodore: Ted, Teddy, Theo
  Theresa: Terry, Tess, Tessa
  Teresa: Terry, Terri, Tess
  Thomas: Tom, Tommy
  Timothy: Tim, Timmy
  Valerie: Val
  Veronica: Ronnie, Vera
  Victoria: Vicky, Tori
  Vincent: Vince, Vinny
  Virginia: Ginny, Ginger
  Walter: Walt, Wally
  William: Bill, Will, Billy, Willie, Liam
  Zachary: Zach, Zack
`;

const key = (name: string) => name.trim().toLowerCase();

/** Formal name → its nicknames, in the table's spelling. */
export const NICKNAMES: ReadonlyMap<string, readonly string[]> = new Map(
  TABLE.trim()
    .split('\n')
    .map((line) => {
      const [formal, nicks] = line.split(':');
      return [formal!.trim(), nicks!.split(',').map((n) => n.trim())] as const;
    }),
);

const byFormal = new Map<string, readonly string[]>();
const byNickname = new Map<string, string[]>();
for (const [formal, nicks] of NICKNAMES) {
  byFormal.set(key(formal), nicks);
  for (const nick of nicks) {
    const list = byNickname.get(key(nick)) ?? [];
    list.push(formal);
    byNickname.set(key(nick), list);
  }
}

/** The nicknames of a formal name (any case); [] when it has none in the table. */
export function nicknamesOf(formal: string): readonly string[] {
  return byFormal.get(key(formal)) ?? [];
}

/** The formal names a nickname may stand for (any case): 'Sam' → Samantha, Samuel. */
export function formalNamesOf(nickname: string): readonly string[] {
  return byNickname.get(key(nickname)) ?? [];
}

/** The formal names a given name belongs to: itself when it is formal, plus those it is a nickname of. */
function roots(name: string): string[] {
  const k = key(name);
  const out = byFormal.has(k) ? [k] : [];
  for (const formal of byNickname.get(k) ?? []) out.push(key(formal));
  return out;
}

/**
 * Whether two given names can be the same person's: equal (any case), one a nickname of the other, or both
 * nicknames of one formal name ('Bob' and 'Rob').
 */
export function sameGivenName(a: string, b: string): boolean {
  const ka = key(a);
  const kb = key(b);
  if (ka === kb) return true;
  const rb = new Set(roots(kb));
  return roots(ka).some((r) => rb.has(r));
}
