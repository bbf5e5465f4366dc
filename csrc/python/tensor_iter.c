/* tensor_iter.c - `for x in t`: iteration over a tensor's first axis, in C.
 *
 * Note [Iterating in C]
 * Iteration gives t[0], t[1], ... as t[i] does: 0-d copies of a 1-d
 * tensor's elements (NumPy's scalars, Note [An element is a copy] in
 * index.c), views of rows otherwise; a 0-d tensor is not iterable (NumPy's
 * TypeError, raised by iter()).  Through map(t.__getitem__, range(n)) each
 * step cost about 120 ns, four times NumPy's; here a step of a 1-d CPU
 * tensor is one element copy.  The length is read at each step, so an
 * nn.Parameter whose data is replaced meanwhile ends at its new length.
 * A subclass that defines __getitem__ is iterated through it, as NumPy's
 * subclasses are.  The iterator is garbage-collected: a tensor subclass's
 * instance may hold its own iterator.
 */
#include "pydt.h"

typedef struct {
    PyObject_HEAD
    PyDtTensor *tensor; /* NULL once exhausted */
    int64_t next;
} tensor_iter;

static PyTypeObject tensor_iter_type;

PyObject *dt_py_tensor_iter(PyDtTensor *self)
{
    if (self->t.ndim == 0)
        return PyErr_Format(PyExc_TypeError, "iteration over a 0-d array"); /* NumPy's words */
    tensor_iter *it = PyObject_GC_New(tensor_iter, &tensor_iter_type);
    if (it == NULL)
        return NULL;
    it->tensor = (PyDtTensor *)Py_NewRef((PyObject *)self);
    it->next = 0;
    PyObject_GC_Track(it);
    return (PyObject *)it;
}

static PyObject *iter_next(tensor_iter *it)
{
    PyDtTensor *t = it->tensor;
    if (t == NULL)
        return NULL;
    if (t->t.ndim == 0 || it->next >= t->t.shape[0]) {
        Py_CLEAR(it->tensor);
        return NULL;
    }
    return dt_py_tensor_row(t, it->next++);
}

/* list(t) and tuple(t) size their result once */
static PyObject *iter_length_hint(tensor_iter *it, PyObject *unused)
{
    (void)unused;
    const PyDtTensor *t = it->tensor;
    int64_t left = t == NULL || t->t.ndim == 0 ? 0 : t->t.shape[0] - it->next;
    return PyLong_FromLongLong(left > 0 ? left : 0);
}

static int iter_traverse(tensor_iter *it, visitproc visit, void *arg)
{
    Py_VISIT(it->tensor);
    return 0;
}

static int iter_clear(tensor_iter *it)
{
    Py_CLEAR(it->tensor);
    return 0;
}

static void iter_dealloc(tensor_iter *it)
{
    PyObject_GC_UnTrack(it);
    Py_CLEAR(it->tensor);
    PyObject_GC_Del(it);
}

static PyMethodDef iter_methods[] = {
    {"__length_hint__", (PyCFunction)iter_length_hint, METH_NOARGS, "the number of items left"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject tensor_iter_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "devtensor._C.TensorIterator",
    .tp_basicsize = sizeof(tensor_iter),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "An iterator over a tensor's first axis.",
    .tp_dealloc = (destructor)iter_dealloc,
    .tp_traverse = (traverseproc)iter_traverse,
    .tp_clear = (inquiry)iter_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)iter_next,
    .tp_methods = iter_methods,
};

int dt_py_tensor_iter_init(void)
{
    return PyType_Ready(&tensor_iter_type);
}
