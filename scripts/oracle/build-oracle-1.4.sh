#!/usr/bin/env bash
# Builds the oracle of operator 1.4.0 (the tree of c13fdcec6) with test/fixtures/oracle/oracle-1.4.patch.
# usage: build-oracle-1.4.sh DYNAMO_GIT_DIR ORACLE_DIR OUT_DIR
#   DYNAMO_GIT_DIR  a clone (bare is fine) of the Dynamo repository holding commit c13fdcec6
#   ORACLE_DIR      the oracle's folder (dynamo-oracle/*.go, build.sh), see test/fixtures/oracle/README.md
#   OUT_DIR         where the tree is unpacked and OUT_DIR/dynamo-oracle is written
# Needs Go and the Go module proxy (some 430 MB of modules).
set -euo pipefail
GIT=${1:?usage: build-oracle-1.4.sh DYNAMO_GIT_DIR ORACLE_DIR OUT_DIR}
ORACLE=${2:?usage: build-oracle-1.4.sh DYNAMO_GIT_DIR ORACLE_DIR OUT_DIR}
OUT=${3:?usage: build-oracle-1.4.sh DYNAMO_GIT_DIR ORACLE_DIR OUT_DIR}
PATCH=$(cd "$(dirname "$0")/../../test/fixtures/oracle" && pwd)/oracle-1.4.patch
mkdir -p "$OUT/src" "$OUT/oracle"
# the operator and its snapshot module (go.mod already replaces it with ../snapshot)
git -C "$GIT" archive c13fdcec6 deploy/operator deploy/snapshot | tar -x -C "$OUT/src"
cp -r "$ORACLE"/. "$OUT/oracle/"
(cd "$OUT/oracle" && patch -p1 < "$PATCH")
(cd "$OUT/src/deploy/operator" && GOFLAGS=-mod=mod go mod download)
bash "$OUT/oracle/build.sh" "$OUT/src/deploy/operator" "$OUT/dynamo-oracle.tmp"
mv "$OUT/dynamo-oracle.tmp" "$OUT/dynamo-oracle"
echo "built $OUT/dynamo-oracle"
