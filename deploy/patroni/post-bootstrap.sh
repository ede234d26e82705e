#!/bin/sh
# Patroni runs this once, on the node that initialises the cluster, with the superuser's connection
# URL as $1: the Slots database; the API's migrator creates the schema in it.
set -eu
psql "$1" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE slots"
