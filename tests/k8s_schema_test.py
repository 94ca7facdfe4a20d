#!/usr/bin/python3
"""A schema check of the Kubernetes manifests in deploy/k8s/, against the
Kubernetes API types of Debian's python3-kubernetes (the client generated
from the Kubernetes OpenAPI spec: every type's fields, their JSON names and
types, and which are required).

  k8s_schema_test.py --source SRC [unittest args]

Every document of every manifest is walked field by field: an unknown field,
a value of the wrong type (a string where an integer goes, a map where a
list goes) or a missing required field is an error naming its path
(`crawl-cluster.yaml: StatefulSet fcrawl-worker: spec.template.spec.
containers[0].volumeMounts[1].mountPath: required`). The MPI operator's
MPIJob (kubeflow.org/v2beta1, a custom resource the client does not know)
is checked against its published spec fields, and its pod templates as
Kubernetes PodTemplateSpecs. The cases below also show that the check
finds each kind of error.

PolicyTest checks what the crawl cluster's and the ranking round's
manifests promise beyond the schema: every pod non-root, without privilege
escalation or capabilities, with a read-only root filesystem, the runtime's
seccomp profile and a memory limit; each StatefulSet's serviceName a
headless Service selecting its pods; a PodDisruptionBudget of one worker;
the coordinator's /metrics on :9090 behind a token that is not the cluster
token, with Prometheus annotations and an HTTP readiness probe.

`kubectl apply --dry-run=client` needs an API server to answer discovery
and OpenAPI requests, which no Debian 12 package provides; this is the check
that runs here.
"""

import argparse
import datetime
import glob
import os
import re
import sys
import unittest

ARGS = None

# kubeflow.org/v2beta1 MPIJob (github.com/kubeflow/mpi-operator,
# pkg/apis/kubeflow/v2beta1/types.go): field → type, as the client's
# openapi_types spell them; 'PodTemplate' is a V1PodTemplateSpec.
MPIJOB = {
    'MPIJob': {'apiVersion': 'str', 'kind': 'str', 'metadata': 'V1ObjectMeta',
               'spec': 'MPIJobSpec', 'status': 'object'},
    'MPIJobSpec': {'slotsPerWorker': 'int', 'runPolicy': 'RunPolicy',
                   'mpiReplicaSpecs': 'dict(str, ReplicaSpec)', 'sshAuthMountPath': 'str',
                   'launcherCreationPolicy': 'str', 'mpiImplementation': 'str'},
    'RunPolicy': {'cleanPodPolicy': 'str', 'ttlSecondsAfterFinished': 'int',
                  'activeDeadlineSeconds': 'int', 'backoffLimit': 'int',
                  'schedulingPolicy': 'object', 'suspend': 'bool', 'managedBy': 'str'},
    'ReplicaSpec': {'replicas': 'int', 'template': 'V1PodTemplateSpec',
                    'restartPolicy': 'str'},
}
MPIJOB_REQUIRED = {'MPIJobSpec': {'mpiReplicaSpecs'}}


class Checker:
    def __init__(self):
        import kubernetes.client as k
        self.k = k
        self.required_of = {}  # model class -> its required JSON fields

    def model(self, type_name):
        return getattr(self.k, type_name, None)

    def check_value(self, value, type_name, path, errors):
        if value is None:
            return
        m = re.match(r'^list\[(.+)\]$', type_name)
        if m:
            if not isinstance(value, list):
                errors.append('%s: a list, not %s' % (path, type(value).__name__))
                return
            for i, v in enumerate(value):
                self.check_value(v, m.group(1), '%s[%d]' % (path, i), errors)
            return
        m = re.match(r'^dict\(str, (.+)\)$', type_name)
        if m:
            if not isinstance(value, dict):
                errors.append('%s: a map, not %s' % (path, type(value).__name__))
                return
            for key, v in value.items():
                self.check_value(v, m.group(1), '%s.%s' % (path, key), errors)
            return
        if type_name == 'str':
            if not isinstance(value, str):
                errors.append('%s: a string, not %s %r' % (path, type(value).__name__, value))
        elif type_name == 'int':
            if not isinstance(value, int) or isinstance(value, bool):
                errors.append('%s: an integer, not %s %r' % (path, type(value).__name__, value))
        elif type_name == 'bool':
            if not isinstance(value, bool):
                errors.append('%s: true or false, not %r' % (path, value))
        elif type_name == 'float':
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                errors.append('%s: a number, not %r' % (path, value))
        elif type_name == 'datetime':
            if not isinstance(value, (str, datetime.datetime)):
                errors.append('%s: a time, not %r' % (path, value))
        elif type_name == 'object':
            pass  # free-form (IntOrString, quantities, raw extensions)
        elif type_name in MPIJOB:
            self.check_object(value, MPIJOB[type_name], MPIJOB_REQUIRED.get(type_name, set()),
                              path, errors)
        else:
            cls = self.model(type_name)
            if cls is None:
                errors.append('%s: unknown type %s' % (path, type_name))
                return
            fields = {cls.attribute_map[a]: t for a, t in cls.openapi_types.items()}
            self.check_object(value, fields, self.required(cls), path, errors)

    def required(self, cls):
        """The fields whose setter refuses None (the spec's required ones),
        found once per type."""
        if cls in self.required_of:
            return self.required_of[cls]
        out = self.required_of[cls] = set()
        for attr, json_name in cls.attribute_map.items():
            try:
                obj = cls.__new__(cls)
                obj.local_vars_configuration = self.k.Configuration()
                obj.local_vars_configuration.client_side_validation = True
                setattr(obj, attr, None)
            except ValueError:
                out.add(json_name)
            except Exception:
                pass
        return out

    def check_object(self, value, fields, required, path, errors):
        if not isinstance(value, dict):
            errors.append('%s: an object, not %s %r' % (path, type(value).__name__, value))
            return
        for key, v in value.items():
            sub = '%s.%s' % (path, key) if path else key
            if key not in fields:
                errors.append('%s: no such field' % sub)
                continue
            self.check_value(v, fields[key], sub, errors)
        for key in sorted(required):
            if value.get(key) is None:
                errors.append('%s: required' % ('%s.%s' % (path, key) if path else key))

    def check_document(self, doc):
        """Errors of one manifest document (a list of strings)."""
        errors = []
        if not isinstance(doc, dict):
            return ['the document is not a mapping']
        api, kind = doc.get('apiVersion'), doc.get('kind')
        if not isinstance(api, str) or not isinstance(kind, str):
            return ['apiVersion and kind: required strings']
        if (api, kind) == ('kubeflow.org/v2beta1', 'MPIJob'):
            self.check_value(doc, 'MPIJob', '', errors)
            return errors
        version = api.split('/')[-1]
        type_name = 'V%s%s' % (version[1:], kind) if version.startswith('v') else None
        cls = self.model(type_name) if type_name else None
        if cls is None or not hasattr(cls, 'openapi_types'):
            return ['%s %s: not a type the Kubernetes API has' % (api, kind)]
        self.check_value(doc, type_name, '', errors)
        meta = doc.get('metadata') or {}
        # generateName works with `kubectl create` only (apply needs a name).
        if not meta.get('name') and not meta.get('generateName'):
            errors.append('metadata.name: required')
        return [e.lstrip('.') for e in errors]


def manifests(source):
    return sorted(glob.glob(os.path.join(source, 'deploy', 'k8s', '*.yaml')))


def load(path):
    import yaml
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


class SchemaTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        try:
            import kubernetes.client  # noqa: F401
            import yaml  # noqa: F401
        except ImportError as e:
            raise unittest.SkipTest('python3-kubernetes / python3-yaml missing: %s' % e)
        cls.checker = Checker()

    def test_every_manifest_passes(self):
        paths = manifests(ARGS.source)
        self.assertGreaterEqual(len(paths), 3, paths)
        seen = set()
        for path in paths:
            for doc in load(path):
                seen.add(doc.get('kind'))
                errors = self.checker.check_document(doc)
                self.assertEqual(errors, [], '%s: %s %s' % (
                    os.path.basename(path), doc.get('kind'),
                    (doc.get('metadata') or {}).get('name')))
        for kind in ('Service', 'StatefulSet', 'Job', 'MPIJob'):
            self.assertIn(kind, seen)

    def broken(self, change):
        """The crawl cluster's worker StatefulSet with `change` applied."""
        docs = load(os.path.join(ARGS.source, 'deploy', 'k8s', 'crawl-cluster.yaml'))
        doc = next(d for d in docs if d['kind'] == 'StatefulSet' and
                   'worker' in d['metadata']['name'])
        change(doc)
        return self.checker.check_document(doc)

    def test_finds_an_unknown_field(self):
        def change(d):
            d['spec']['template']['spec']['containers'][0]['imagePullPolicyy'] = 'Never'
        errors = self.broken(change)
        self.assertIn('spec.template.spec.containers[0].imagePullPolicyy: no such field', errors)

    def test_finds_a_wrong_type(self):
        def change(d):
            d['spec']['replicas'] = 'three'
        self.assertIn("spec.replicas: an integer, not str 'three'", self.broken(change))

        def change2(d):
            d['spec']['template']['spec']['containers'] = {'name': 'x'}
        self.assertTrue(any(e.startswith('spec.template.spec.containers: a list')
                            for e in self.broken(change2)))

    def test_finds_a_missing_required_field(self):
        def change(d):
            del d['spec']['template']['spec']['containers'][0]['name']
        self.assertIn('spec.template.spec.containers[0].name: required', self.broken(change))

        def change2(d):
            del d['spec']['selector']
        self.assertIn('spec.selector: required', self.broken(change2))

    def test_finds_an_unknown_kind_and_a_bad_mpijob(self):
        self.assertEqual(self.checker.check_document({'apiVersion': 'apps/v1', 'kind': 'Deploymnt',
                                                      'metadata': {'name': 'x'}}),
                         ['apps/v1 Deploymnt: not a type the Kubernetes API has'])
        job = {'apiVersion': 'kubeflow.org/v2beta1', 'kind': 'MPIJob',
               'metadata': {'name': 'x'},
               'spec': {'slotsPerWorker': '1', 'mpiReplicaSpecs': {
                   'Launcher': {'replicas': 1, 'template': {'spec': {'containers': [{}]}}}}}}
        errors = self.checker.check_document(job)
        self.assertIn("spec.slotsPerWorker: an integer, not str '1'", errors)
        self.assertIn('spec.mpiReplicaSpecs.Launcher.template.spec.containers[0].name: required',
                      errors)


def pod_templates(doc):
    """(path, PodTemplateSpec dict) of a workload document."""
    kind = doc.get('kind')
    if kind in ('StatefulSet', 'Deployment', 'DaemonSet', 'Job'):
        return [('spec.template', doc['spec']['template'])]
    if kind == 'MPIJob':
        return [('spec.mpiReplicaSpecs.%s.template' % k, v['template'])
                for k, v in doc['spec']['mpiReplicaSpecs'].items()]
    return []


def hardening_problems(doc):
    """What a pod template of `doc` lacks of the project's pod security
    (docs in crawl-cluster.yaml): non-root, no privilege escalation, no
    capabilities, read-only root filesystem, the runtime's seccomp profile,
    memory limits."""
    out = []
    for path, tmpl in pod_templates(doc):
        spec = tmpl.get('spec', {})
        pod = spec.get('securityContext') or {}
        if pod.get('runAsNonRoot') is not True or not pod.get('runAsUser'):
            out.append('%s: runs as root (securityContext.runAsNonRoot, runAsUser)' % path)
        if (pod.get('seccompProfile') or {}).get('type') != 'RuntimeDefault':
            out.append('%s: no RuntimeDefault seccomp profile' % path)
        for c in spec.get('containers', []):
            sc = c.get('securityContext') or {}
            where = '%s container %s' % (path, c.get('name'))
            if sc.get('allowPrivilegeEscalation') is not False:
                out.append('%s: may escalate privileges' % where)
            if sc.get('readOnlyRootFilesystem') is not True:
                out.append('%s: writable root filesystem' % where)
            if (sc.get('capabilities') or {}).get('drop') != ['ALL']:
                out.append('%s: keeps capabilities' % where)
            if not ((c.get('resources') or {}).get('limits') or {}).get('memory'):
                out.append('%s: no memory limit' % where)
    return out


class PolicyTest(unittest.TestCase):
    """What the crawl cluster's and the ranking round's manifests promise an
    operator (issue 56 item 14), beyond the schema."""

    @classmethod
    def setUpClass(cls):
        try:
            import yaml  # noqa: F401
        except ImportError as e:
            raise unittest.SkipTest('python3-yaml missing: %s' % e)
        cls.cluster = load(os.path.join(ARGS.source, 'deploy', 'k8s', 'crawl-cluster.yaml'))

    def find(self, kind, name):
        return next(d for d in self.cluster
                    if d['kind'] == kind and d['metadata']['name'] == name)

    def test_pods_are_hardened(self):
        for name in ('crawl-cluster.yaml', 'ranker-round-job.yaml'):
            for doc in load(os.path.join(ARGS.source, 'deploy', 'k8s', name)):
                self.assertEqual(hardening_problems(doc), [], '%s %s' % (name, doc['kind']))

    def test_a_pod_that_is_not_hardened_is_found(self):
        doc = self.find('StatefulSet', 'fcrawl-worker')
        bad = {'kind': 'Job', 'spec': {'template': {'spec': {'containers': [
            {'name': 'x', 'resources': {}}]}}}}
        self.assertEqual(hardening_problems(bad), [
            'spec.template: runs as root (securityContext.runAsNonRoot, runAsUser)',
            'spec.template: no RuntimeDefault seccomp profile',
            'spec.template container x: may escalate privileges',
            'spec.template container x: writable root filesystem',
            'spec.template container x: keeps capabilities',
            'spec.template container x: no memory limit'])
        self.assertEqual(hardening_problems(doc), [])

    def test_stateful_sets_name_headless_services(self):
        services = {d['metadata']['name']: d for d in self.cluster if d['kind'] == 'Service'}
        for doc in self.cluster:
            if doc['kind'] != 'StatefulSet':
                continue
            svc = services.get(doc['spec']['serviceName'])
            self.assertIsNotNone(svc, doc['metadata']['name'])
            self.assertEqual(svc['spec'].get('clusterIP'), 'None', svc['metadata']['name'])
            self.assertEqual(svc['spec']['selector'],
                             doc['spec']['template']['metadata']['labels'])

    def test_workers_have_a_disruption_budget(self):
        pdb = self.find('PodDisruptionBudget', 'fcrawl-worker')
        workers = self.find('StatefulSet', 'fcrawl-worker')
        self.assertEqual(pdb['spec']['selector']['matchLabels'],
                         workers['spec']['template']['metadata']['labels'])
        self.assertEqual(pdb['spec']['maxUnavailable'], 1)

    def test_metrics_are_scrapable_with_their_own_token(self):
        coord = self.find('StatefulSet', 'fcrawl-coordinator')
        tmpl = coord['spec']['template']
        c = tmpl['spec']['containers'][0]
        args = c['args']
        self.assertIn('--metrics=0.0.0.0:9090', args)
        token = next(a for a in args if a.startswith('--metrics_token_file='))
        mount = os.path.dirname(token.split('=', 1)[1])
        vol = next(m['name'] for m in c['volumeMounts'] if m['mountPath'] == mount)
        secret = next(v['secret']['secretName'] for v in tmpl['spec']['volumes']
                      if v['name'] == vol)
        self.assertNotEqual(secret, 'fcrawl-token')  # not the cluster token
        self.assertIn(9090, [p['containerPort'] for p in c['ports']])
        ann = tmpl['metadata']['annotations']
        self.assertEqual((ann['prometheus.io/scrape'], ann['prometheus.io/port'],
                          ann['prometheus.io/path']), ('true', '9090', '/metrics'))
        self.assertEqual(c['readinessProbe']['httpGet'], {'path': '/readyz', 'port': 9090})
        self.assertIn('--http=127.0.0.1:7080', args)  # /status stays on loopback


def main():
    global ARGS
    p = argparse.ArgumentParser()
    p.add_argument('--source', required=True)
    ARGS, rest = p.parse_known_args()
    unittest.main(argv=[sys.argv[0], '-v'] + rest)


if __name__ == '__main__':
    main()
