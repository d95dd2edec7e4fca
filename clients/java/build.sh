#!/usr/bin/env bash
# Builds the Java client with javac alone (its machines reach no Maven repository) and runs its JUnit 5 tests.
#
#   ./build.sh           compile, jar, compile the examples, run every test
#   ./build.sh compile   compile, jar and examples only
#   ./build.sh package   compile, then what a Maven repository holds beside the jar: tessera-client-<version>.pom
#                        (this pom.xml), -sources.jar and -javadoc.jar (the JDK's javadoc; nothing fetched)
#
# Output goes to out/ (or $TESSERA_JAVA_OUT): classes/, test-classes/, examples/, tessera-client-<version>.jar.
# JUnit is Debian's junit5 package (`apt-get install -y junit5`: /usr/share/java/junit-platform-console-standalone.jar),
# or the console launcher named by $JUNIT_CONSOLE.
#
# The tests against a server read TESSERA_BASE_URL, TESSERA_API_KEY, TESSERA_EMAIL, TESSERA_IDENTITY_ID,
# TESSERA_LEGACY_KEY (a key made with legacy: true) and TESSERA_LIMITED_KEY (a key with rateLimit: 30); without them
# those tests are skipped (JUnit counts them as aborted). test/java.suite.test.ts starts a server and sets them all.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
out="${TESSERA_JAVA_OUT:-$here/out}"

# The version lives in pom.xml only: the project's own <version>, the first one indented by two spaces.
version="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)"
if [ -z "$version" ]; then
  echo "build.sh: no project <version> in pom.xml" >&2
  exit 1
fi

rm -rf "$out/classes" "$out/test-classes" "$out/examples"
mkdir -p "$out/classes" "$out/test-classes" "$out/examples"

mapfile -t main_sources < <(find src/main/java -name '*.java' | sort)
javac --release 17 -encoding UTF-8 -Xlint:all -Xdoclint:all,-missing -Werror -d "$out/classes" "${main_sources[@]}"
# Resources, with ${project.version} filled in as Maven's resource filtering does.
while IFS= read -r f; do
  mkdir -p "$out/classes/$(dirname "$f")"
  sed "s/\${project.version}/$version/g" "src/main/resources/$f" >"$out/classes/$f"
done < <(cd src/main/resources && find . -type f | sed 's:^\./::')
rm -f "$out"/tessera-client-*.jar
jar --create --file "$out/tessera-client-$version.jar" -C "$out/classes" .
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -cp "$out/classes" -d "$out/examples" examples/*.java
echo "built tessera-client $version: $out/tessera-client-$version.jar"

if [ "${1:-test}" = compile ]; then exit 0; fi
if [ "${1:-test}" = package ]; then
  rm -rf "$out/javadoc" "$out"/tessera-client-*-sources.jar "$out"/tessera-client-*-javadoc.jar "$out"/tessera-client-*.pom
  cp pom.xml "$out/tessera-client-$version.pom"
  jar --create --file "$out/tessera-client-$version-sources.jar" -C src/main/java . -C src/main/resources .
  javadoc -quiet --release 17 -encoding UTF-8 -Xdoclint:all,-missing -Werror -d "$out/javadoc" \
    -doctitle "Tessera Java client $version" -windowtitle "Tessera Java client $version" "${main_sources[@]}"
  jar --create --file "$out/tessera-client-$version-javadoc.jar" -C "$out/javadoc" .
  echo "packaged tessera-client $version: pom, sources and javadoc beside the jar"
  exit 0
fi

junit="${JUNIT_CONSOLE:-/usr/share/java/junit-platform-console-standalone.jar}"
if [ ! -f "$junit" ]; then
  echo "build.sh: no JUnit console launcher at $junit: apt-get install -y junit5 (or set JUNIT_CONSOLE)" >&2
  exit 1
fi
mapfile -t test_sources < <(find src/test/java -name '*.java' | sort)
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -cp "$out/classes:$junit" -d "$out/test-classes" \
  "${test_sources[@]}"
cp -R src/test/resources/. "$out/test-classes/"

java -jar "$junit" \
  --class-path "$out/classes:$out/test-classes" \
  --scan-class-path "$out/test-classes" \
  --disable-banner \
  --disable-ansi-colors \
  --details=tree \
  --fail-if-no-tests \
  --reports-dir "$out/test-reports"
